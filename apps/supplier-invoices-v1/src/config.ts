import { Transform } from 'class-transformer';
import { toInt } from '@erp/bootstrap';
import { IsInt, Max, Min } from 'class-validator';
import { KafkaServiceConfig } from '@erp/messaging';

/** ServiceConfig, the Kafka variables (KAFKA_BROKERS, ...; see libs/messaging) and its own. */
export class SupplierInvoicesConfig extends KafkaServiceConfig {
  override PORT = 3102;

  /** Default and maximum pageSize of GET /v1/supplierInvoice (the v1 rule: they are equal). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  SUPPLIER_INVOICE_MAX_PAGE_SIZE = 500;
}
