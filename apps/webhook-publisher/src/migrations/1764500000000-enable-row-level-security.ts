import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableTenantIsolationV1, enableTenantIsolationV1, type TenantTableV1 } from '@erp/database';

/** Every table holding one company's data. */
export const WEBHOOKS_TENANT_TABLES: TenantTableV1[] = [
  'webhook_subscriptions',
  'webhook_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
];

/**
 * Defence in depth: request traffic (the subscriptions API) runs as `<db>_app` limited by
 * row-level security to the request's company, so a query that forgets `company_id` still cannot
 * reach another company's subscriptions, secrets or deliveries (libs/database, RELIABILITY.md
 * "Defence in depth"). The event intake and the delivery worker work across companies as the
 * service itself.
 */
export class EnableRowLevelSecurity1764500000000 implements MigrationInterface {
  name = 'EnableRowLevelSecurity1764500000000';

  up(q: QueryRunner): Promise<void> {
    return enableTenantIsolationV1(q, WEBHOOKS_TENANT_TABLES);
  }

  down(q: QueryRunner): Promise<void> {
    return disableTenantIsolationV1(q, WEBHOOKS_TENANT_TABLES);
  }
}
