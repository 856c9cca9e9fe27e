import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsUrl, Min } from 'class-validator';
import { ServiceConfig, toInt } from '@erp/bootstrap';

const urlList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((url) => url.trim()).filter((url) => url.length > 0) : value;
/** One URL (a Kubernetes Service), or a comma-separated list of replicas (`npm start --replicas`, tests). */
const upstreamUrl = () => (target: object, property: string) => {
  Transform(urlList)(target, property);
  IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { each: true })(target, property);
};

/**
 * The gateway has no database. Each upstream is optional: a service that is not configured simply
 * has no routes (its paths answer 404), so the gateway can run before every service exists.
 */
export class GatewayConfig extends ServiceConfig {
  override PORT = 3000;
  override DATABASE_URL = 'postgres://unused/unused';

  @IsOptional() @upstreamUrl() CUSTOMERS_URL?: string[];
  @IsOptional() @upstreamUrl() SUPPLIER_INVOICES_URL?: string[];
  @IsOptional() @upstreamUrl() ATTACHMENTS_URL?: string[];
  @IsOptional() @upstreamUrl() SALES_ORDERS_URL?: string[];
  @IsOptional() @upstreamUrl() WEBHOOKS_URL?: string[];

  /**
   * Requests per company (the token's verified company) per minute through this gateway; over it
   * 429 with `Retry-After`. 0 turns the limit off. Counted in memory per gateway replica.
   */
  @Transform(toInt)
  @IsInt()
  @Min(0)
  RATE_LIMIT_PER_COMPANY_PER_MINUTE = 120_000;
}
