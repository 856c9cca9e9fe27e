import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableTenantViewsV1, enableTenantViewsV1 } from '@erp/database';

/** Every table holding one company's data, the kept cells and search texts included. */
export const SALES_ORDERS_TENANT_TABLES = [
  'sales_orders',
  'sales_order_lines',
  'sales_order_counters',
  'customer_snapshots',
  'inventory_items',
  'inventory_warehouses',
  'inventory_locations',
  'sales_order_time_cells',
  'sales_order_id_cells',
  'sales_order_search_texts',
];

/**
 * Defence in depth: request traffic and the customer-event consumer run as `<db>_app`, which
 * reaches these tables only through views limited to the bound company, so a query that forgets
 * `company_id` still cannot reach another company's rows. Views rather than row-level security
 * policies: with a policy, PostgreSQL will not use the `filter` search's trigram index
 * (RELIABILITY.md "Defence in depth").
 */
export class EnableTenantViews1766700000000 implements MigrationInterface {
  name = 'EnableTenantViews1766700000000';

  up(q: QueryRunner): Promise<void> {
    return enableTenantViewsV1(q, SALES_ORDERS_TENANT_TABLES, ['outbox', 'processed_events']);
  }

  down(q: QueryRunner): Promise<void> {
    return disableTenantViewsV1(q);
  }
}
