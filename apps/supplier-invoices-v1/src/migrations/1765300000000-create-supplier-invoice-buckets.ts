import type { MigrationInterface, QueryRunner } from 'typeorm';
import { protectTenantTables, type TenantTable } from '@erp/database';

/** The count cells hold one company's data: row-level security like every tenant table. */
export const SUPPLIER_INVOICE_BUCKET_TENANT_TABLES: TenantTable[] = ['supplier_invoice_buckets'];

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
    await q.query(`
      CREATE TABLE supplier_invoice_buckets (
        company_id varchar(64) NOT NULL,
        status varchar(20) NOT NULL,
        document_type varchar(20) NOT NULL,
        id_bucket bigint NOT NULL,
        modified_bucket integer NOT NULL,
        row_count integer NOT NULL,
        PRIMARY KEY (company_id, status, document_type, id_bucket, modified_bucket)
      )`);
    // Deltas (plus for new rows, minus for old ones) are grouped and applied in key order, so that
    // concurrent writers lock cells in one order; a delete's cells always exist, so one upsert serves all.
    const cell = `company_id, status, document_type, internal_id >> 14 AS id_bucket,
      supplier_invoice_time_bucket(last_modified_at) AS modified_bucket`;
    const apply = (deltas: string) => `
      INSERT INTO supplier_invoice_buckets AS b (company_id, status, document_type, id_bucket, modified_bucket, row_count)
      SELECT company_id, status, document_type, id_bucket, modified_bucket, sum(delta) FROM (${deltas}) deltas
      GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
      ON CONFLICT (company_id, status, document_type, id_bucket, modified_bucket)
      DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count`;
    await q.query(`
      CREATE FUNCTION supplier_invoice_buckets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${apply(`SELECT ${cell}, 1 AS delta FROM new_rows`)};
        ELSIF TG_OP = 'DELETE' THEN
          ${apply(`SELECT ${cell}, -1 AS delta FROM old_rows`)};
        ELSE
          -- A row whose cell stays the same (an amount recomputed, a field that is not counted) cancels out.
          ${apply(`SELECT ${cell}, -1 AS delta FROM old_rows UNION ALL SELECT ${cell}, 1 FROM new_rows`)};
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER supplier_invoices_buckets_insert AFTER INSERT ON supplier_invoices
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_invoice_buckets_apply()`);
    await q.query(`
      CREATE TRIGGER supplier_invoices_buckets_update AFTER UPDATE ON supplier_invoices
      REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_invoice_buckets_apply()`);
    await q.query(`
      CREATE TRIGGER supplier_invoices_buckets_delete AFTER DELETE ON supplier_invoices
      REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION supplier_invoice_buckets_apply()`);
    await q.query(`
      CREATE FUNCTION supplier_invoice_buckets_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE supplier_invoice_buckets;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER supplier_invoices_buckets_truncate AFTER TRUNCATE ON supplier_invoices
      FOR EACH STATEMENT EXECUTE FUNCTION supplier_invoice_buckets_clear()`);
    await q.query(`
      INSERT INTO supplier_invoice_buckets (company_id, status, document_type, id_bucket, modified_bucket, row_count)
      SELECT ${cell}, count(*) FROM supplier_invoices GROUP BY 1, 2, 3, 4, 5`);
    await protectTenantTables(q, SUPPLIER_INVOICE_BUCKET_TENANT_TABLES);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER supplier_invoices_buckets_truncate ON supplier_invoices`);
    await q.query(`DROP TRIGGER supplier_invoices_buckets_delete ON supplier_invoices`);
    await q.query(`DROP TRIGGER supplier_invoices_buckets_update ON supplier_invoices`);
    await q.query(`DROP TRIGGER supplier_invoices_buckets_insert ON supplier_invoices`);
    await q.query(`DROP FUNCTION supplier_invoice_buckets_clear()`);
    await q.query(`DROP FUNCTION supplier_invoice_buckets_apply()`);
    await q.query(`DROP TABLE supplier_invoice_buckets`);
    await q.query(`DROP FUNCTION supplier_invoice_time_bucket(timestamptz)`);
  }
}
