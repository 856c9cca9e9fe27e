import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bucket widths as functions, so that the query code (`supplier-invoices.queries.ts`) calls
 * them instead of repeating the widths the triggers use. The widths are those of
 * `supplier_invoice_buckets` (1765300000000): `internal_id >> 14`, and the time buckets of
 * `supplier_invoice_time_bucket()` (2^21 s). A bucket's start is the first id or instant in it;
 * the next bucket's start is the end of this one. Test `supplier-invoice-bucket-functions.int-spec.ts`
 * checks them against the cells the triggers write.
 *
 * Plain `LANGUAGE sql`, IMMUTABLE, without SET or SECURITY DEFINER: the planner inlines them, so a
 * bound of an index scan stays a constant (or an InitPlan's value) the index answers. In schema
 * public; EXECUTE is PUBLIC's by default, so the request role may call them.
 */
export class CreateSupplierInvoiceBucketFunctions1766800000000 implements MigrationInterface {
  name = 'CreateSupplierInvoiceBucketFunctions1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION public.supplier_invoice_id_bucket(internal_id bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT internal_id >> 14 $$`);
    await q.query(`
      CREATE FUNCTION public.supplier_invoice_id_bucket_start(bucket bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT bucket << 14 $$`);
    await q.query(`
      CREATE FUNCTION public.supplier_invoice_time_bucket_start(bucket integer) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT to_timestamp((bucket::bigint << 21)::float8) $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION public.supplier_invoice_time_bucket_start(integer)`);
    await q.query(`DROP FUNCTION public.supplier_invoice_id_bucket_start(bigint)`);
    await q.query(`DROP FUNCTION public.supplier_invoice_id_bucket(bigint)`);
  }
}
