import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropTenantViewsV1, enableTenantViewsV1, type TenantChildTableV1 } from '@erp/database';

/** The tenant wall of this service as views: every table here has its own company_id. */
export const WEBHOOKS_WALL = {
  tables: ['webhook_subscriptions', 'webhook_events', 'webhook_deliveries', 'webhook_delivery_attempts'],
  children: [] as TenantChildTableV1[],
  /** No company data of its own: granted to the request role directly. */
  shared: ['processed_events'],
};

/**
 * One tenant wall for every service (issue 41): the request role `<db>_app` reaches the company
 * tables through views of the same name in its schema, as customers-v1 and sales-orders-v3 do,
 * instead of through the row-level security policies of 1764500000000 (RELIABILITY.md "Defence in
 * depth").
 *
 * EXPAND step: it only adds. The previous release already puts that schema first on the
 * transaction's search_path in a company scope, so its requests go through the views from this
 * migration on, exactly as the new release's do; the policies and the role's privileges on the
 * tables stay until the contract step (1795835600001) drops them.
 */
export class WallByTenantViews1795835600000 implements MigrationInterface {
  name = 'WallByTenantViews1795835600000';

  up(q: QueryRunner): Promise<void> {
    return enableTenantViewsV1(q, WEBHOOKS_WALL.tables, WEBHOOKS_WALL.shared);
  }

  down(q: QueryRunner): Promise<void> {
    return dropTenantViewsV1(q);
  }
}
