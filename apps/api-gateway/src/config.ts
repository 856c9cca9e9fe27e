import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ServiceConfig, toInt, UrlList } from '@erp/bootstrap';

/**
 * The gateway has no database. Each upstream is optional: a service that is not configured simply
 * has no routes (its paths answer 404), so the gateway can run before every service exists.
 */
export class GatewayConfig extends ServiceConfig {
  override PORT = 3000;
  override DATABASE_URL = 'postgres://unused/unused';
  /** Above the idle timeout of the load balancers in front of the gateway (60 s: AWS ALB, ingress-nginx). */
  override KEEP_ALIVE_TIMEOUT_MS = 72_000;

  @IsOptional() @UrlList() CUSTOMERS_URL?: string[];
  @IsOptional() @UrlList() SUPPLIER_INVOICES_URL?: string[];
  @IsOptional() @UrlList() ATTACHMENTS_URL?: string[];
  @IsOptional() @UrlList() SALES_ORDERS_URL?: string[];
  @IsOptional() @UrlList() WEBHOOKS_URL?: string[];

  /**
   * Requests per company (the token's verified company) per minute through this gateway; over it
   * 429 with `Retry-After`. 0 turns the limit off. Counted in memory per gateway replica.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_COMPANY_PER_MINUTE = 120_000;
}
