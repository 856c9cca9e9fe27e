import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableTenantViewsV1, enableTenantViewsV1 } from '@erp/database';

/** Every table holding one company's data, the kept counts included. */
export const CUSTOMERS_TENANT_TABLES = [
  'customers',
  'customer_number_counters',
  'customer_list_buckets',
  'customer_time_buckets',
  'customer_name_fragments',
  'customer_name_cells',
];

/**
 * Defence in depth: request traffic runs as `<db>_app`, which reaches these tables only through
 * views limited to the request's company, so a query that forgets `company_id` still cannot reach
 * another company's rows. Views rather than row-level security policies: with a policy, PostgreSQL
 * will not use the `name` filter's trigram index (RELIABILITY.md "Defence in depth").
 */
export class EnableTenantViews1766700000000 implements MigrationInterface {
  name = 'EnableTenantViews1766700000000';

  up(q: QueryRunner): Promise<void> {
    return enableTenantViewsV1(q, CUSTOMERS_TENANT_TABLES, ['outbox']);
  }

  down(q: QueryRunner): Promise<void> {
    return disableTenantViewsV1(q);
  }
}
