import { Transform } from 'class-transformer';
import { toInt } from '@erp/bootstrap';
import { IsInt, Max, Min } from 'class-validator';
import { InternalApiServiceConfig } from '@erp/internal-api';

/**
 * ServiceConfig, the Kafka variables (KAFKA_BROKERS, ...; see libs/messaging), the internal API's
 * (INTERNAL_API_SECRET, ...: it serves `/internal/v1/customers`) and its own.
 */
export class CustomersConfig extends InternalApiServiceConfig {
  override PORT = 3101;

  /** Default and maximum pageSize of GET /v1/customer (the v1 rule: they are equal). */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10000)
  CUSTOMER_MAX_PAGE_SIZE = 1000;

  /**
   * A `name` fragment whose exact count finds at least this many customers gets kept counts
   * (customer_name_cells): its later pages read the counts instead of rechecking every match.
   */
  @Transform(toInt)
  @IsInt()
  @Min(1)
  CUSTOMER_NAME_COUNT_MIN_MATCHES = 5000;

  /** The most name fragments a company has counted; the least recently used goes first. */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1000)
  CUSTOMER_NAME_COUNTS_PER_COMPANY = 32;

  /**
   * Once a company keeps its most fragments, a new one replaces the least recently used at most this
   * often, across all replicas (the database keeps the time): a client cycling broad fragments costs
   * one backfill per interval, not a stream of them (issue 31). 0: no limit.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  CUSTOMER_NAME_COUNT_REPLACE_INTERVAL_MS = 60_000;
}
