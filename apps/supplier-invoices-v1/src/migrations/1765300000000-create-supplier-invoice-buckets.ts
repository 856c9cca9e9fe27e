import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type CountCellTableV1, createCountCellsV1, dropCountCellsV1, protectTenantTablesV1, type TenantTableV1 } from '@erp/database';

/** The count cells hold one company's data: row-level security like every tenant table. */
export const SUPPLIER_INVOICE_BUCKET_TENANT_TABLES: TenantTableV1[] = ['supplier_invoice_buckets'];

const CELLS: CountCellTableV1[] = [
  {
    name: 'supplier_invoice_buckets',
    columns: [['status', 'varchar(20)'], ['document_type', 'varchar(20)'], ['id_bucket', 'bigint'], ['modified_bucket', 'integer']],
    cell: 'status, document_type, internal_id >> 14, supplier_invoice_time_bucket(last_modified_at)',
  },
];

/**
 * Exact row counts for the list (unfiltered, `status`, `documentType`, `lastModifiedDateTime`
 * ranges, and their combinations): one row per (company, status, document type,
 * internal_id >> 14, last_modified_at bucket), a time bucket being 2^21 seconds (about 24 days) of
 * epoch time. As for customers (customers-v1 1765200000000), statement triggers with transition
 * tables keep them exact: a COPY costs one grouped upsert, and counts commit or roll back with the
 * rows. A list sums the cells wholly inside the range, counts only the boundary time bucket from
 * the covering index, and seeks to the id bucket where the page starts (the repository's
 * `supplier-invoices.queries.ts`: ID and TIME bits there must match the shifts here).
 *
 * The covering indexes come in the next migration (1765300000001), built CONCURRENTLY outside a
 * transaction. Here, the first CREATE TRIGGER takes a SHARE ROW EXCLUSIVE lock on
 * supplier_invoices until this migration commits: writes wait through the backfill (one grouped
 * scan), so no row is both missed by it and written without its trigger.
 */
export class CreateSupplierInvoiceBuckets1765300000000 implements MigrationInterface {
  name = 'CreateSupplierInvoiceBuckets1765300000000';

  async up(q: QueryRunner): Promise<void> {
    // floor, not a cast: a cast rounds, and 0.6 s before a bucket's end would land in the next one.
    await q.query(`
      CREATE FUNCTION supplier_invoice_time_bucket(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT (floor(extract(epoch FROM at))::bigint >> 21)::integer $$`);
    await createCountCellsV1(q, 'supplier_invoices', 'supplier_invoice_buckets', CELLS);
    await protectTenantTablesV1(q, SUPPLIER_INVOICE_BUCKET_TENANT_TABLES);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropCountCellsV1(q, 'supplier_invoices', 'supplier_invoice_buckets', CELLS);
    await q.query(`DROP FUNCTION supplier_invoice_time_bucket(timestamptz)`);
  }
}
