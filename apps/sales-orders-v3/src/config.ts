import { Transform } from 'class-transformer';
import { toInt, UrlList } from '@erp/bootstrap';
import { ArrayNotEmpty, IsInt, Min } from 'class-validator';
import { InternalApiServiceConfig } from '@erp/internal-api';

/**
 * ServiceConfig, the Kafka variables (KAFKA_BROKERS, ...; see libs/messaging), the internal API's
 * (INTERNAL_API_SECRET, ...: it reads customers-v1's) and its own.
 */
export class SalesOrdersConfig extends InternalApiServiceConfig {
  override PORT = 3105;

  /** An order may carry thousands of lines in one POST or PATCH (about 200 bytes each). */
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  override BODY_LIMIT_BYTES = 8 * 1024 * 1024;

  /**
   * customers-v1 (its Service URL, or its replicas), asked for a customer an order names that the
   * customer events have not brought yet (docs/cross-service-reads.md).
   */
  @ArrayNotEmpty({ message: 'CUSTOMERS_URL must name customers-v1 (a URL, or its replicas comma-separated)' })
  @UrlList()
  CUSTOMERS_URL!: string[];
}
