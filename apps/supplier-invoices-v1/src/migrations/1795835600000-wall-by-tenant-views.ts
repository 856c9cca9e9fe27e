import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropTenantViewsV1, enableTenantViewsV1, protectChildTablesByViewsV1, type TenantChildTableV1 } from '@erp/database';

/** The tenant wall of this service as views: tables of one company, lines through their invoice. */
export const SUPPLIER_INVOICES_WALL = {
  tables: ['supplier_invoices', 'supplier_invoice_number_counters', 'supplier_invoice_attachments', 'supplier_invoice_buckets'],
  children: [
    { table: 'supplier_invoice_lines', parent: { table: 'supplier_invoices', column: 'invoice_id', parentColumn: 'internal_id' } },
  ] as TenantChildTableV1[],
  /** No company data of their own: granted to the request role directly. */
  shared: ['outbox', 'processed_events'],
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

  async up(q: QueryRunner): Promise<void> {
    await enableTenantViewsV1(q, SUPPLIER_INVOICES_WALL.tables, SUPPLIER_INVOICES_WALL.shared);
    await protectChildTablesByViewsV1(q, SUPPLIER_INVOICES_WALL.children);
  }

  down(q: QueryRunner): Promise<void> {
    return dropTenantViewsV1(q);
  }
}
