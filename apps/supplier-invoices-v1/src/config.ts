import { Transform } from 'class-transformer';
import { toInt } from '@erp/bootstrap';
import { IsInt, Max, Min } from 'class-validator';
import { InternalApiServiceConfig } from '@erp/internal-api';

/**
 * ServiceConfig, the Kafka variables (KAFKA_BROKERS, ...; see libs/messaging), the internal API's
 * (INTERNAL_API_SECRET, ...: it serves `/internal/v1/supplier-invoices` and `attachment-events`) and its own.
 */
export class SupplierInvoicesConfig extends InternalApiServiceConfig {
  override PORT = 3102;

  /** Default and maximum pageSize of GET /v1/supplierInvoice (the v1 rule: they are equal). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  SUPPLIER_INVOICE_MAX_PAGE_SIZE = 500;
}
