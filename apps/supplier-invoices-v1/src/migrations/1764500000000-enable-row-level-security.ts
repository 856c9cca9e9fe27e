import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableTenantIsolationV1, enableTenantIsolationV1, type TenantTableV1 } from '@erp/database';

/** Every table holding one company's data; lines belong to their invoice's company. */
export const SUPPLIER_INVOICES_TENANT_TABLES: TenantTableV1[] = [
  'supplier_invoices',
  { table: 'supplier_invoice_lines', parent: { table: 'supplier_invoices', column: 'invoice_id', parentColumn: 'internal_id' } },
  'supplier_invoice_number_counters',
  'supplier_invoice_attachments',
];

/**
 * Defence in depth: request traffic runs as `<db>_app` limited by row-level security to the
 * request's company, so a query that forgets `company_id` still cannot reach another company's
 * rows (libs/database, RELIABILITY.md "Defence in depth").
 */
export class EnableRowLevelSecurity1764500000000 implements MigrationInterface {
  name = 'EnableRowLevelSecurity1764500000000';

  up(q: QueryRunner): Promise<void> {
    return enableTenantIsolationV1(q, SUPPLIER_INVOICES_TENANT_TABLES);
  }

  down(q: QueryRunner): Promise<void> {
    return disableTenantIsolationV1(q, SUPPLIER_INVOICES_TENANT_TABLES);
  }
}
