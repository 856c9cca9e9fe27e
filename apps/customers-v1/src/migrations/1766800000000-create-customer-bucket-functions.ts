import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The bucket widths as functions, so that the query code (`@erp/customers-queries`) calls them
 * instead of repeating the widths the triggers use. The widths are those of the triggers already
 * in place: `internal_id >> 14` of `customer_list_buckets` (1763800000000) and of
 * `customer_time_buckets` (1765200000000), `internal_id >> 12` of `customer_name_cells`
 * (1766200000000), and the time buckets of `customer_time_bucket()` (2^21 s) and
 * `customer_name_time_bucket()` (2^19 s). A bucket's start is the first id or instant in it; the
 * next bucket's start is the end of this one. Test `customers-bucket-functions.int-spec.ts` checks
 * them against the cells the triggers write.
 *
 * Plain `LANGUAGE sql`, IMMUTABLE, without SET or SECURITY DEFINER: the planner inlines them, so a
 * bound of an index scan stays a constant (or an InitPlan's value) the index answers. In schema
 * public, which the request role `<db>_app` reaches (its search_path ends with public); EXECUTE is
 * PUBLIC's by default.
 */
export class CreateCustomerBucketFunctions1766800000000 implements MigrationInterface {
  name = 'CreateCustomerBucketFunctions1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION public.customer_list_id_bucket(internal_id bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT internal_id >> 14 $$`);
    await q.query(`
      CREATE FUNCTION public.customer_list_id_bucket_start(bucket bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT bucket << 14 $$`);
    await q.query(`
      CREATE FUNCTION public.customer_time_bucket_start(bucket integer) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT to_timestamp((bucket::bigint << 21)::float8) $$`);
    await q.query(`
      CREATE FUNCTION public.customer_name_id_bucket(internal_id bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT internal_id >> 12 $$`);
    await q.query(`
      CREATE FUNCTION public.customer_name_id_bucket_start(bucket bigint) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT bucket << 12 $$`);
    await q.query(`
      CREATE FUNCTION public.customer_name_time_bucket_start(bucket integer) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT to_timestamp((bucket::bigint << 19)::float8) $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION public.customer_name_time_bucket_start(integer)`);
    await q.query(`DROP FUNCTION public.customer_name_id_bucket_start(bigint)`);
    await q.query(`DROP FUNCTION public.customer_name_id_bucket(bigint)`);
    await q.query(`DROP FUNCTION public.customer_time_bucket_start(integer)`);
    await q.query(`DROP FUNCTION public.customer_list_id_bucket_start(bigint)`);
    await q.query(`DROP FUNCTION public.customer_list_id_bucket(bigint)`);
  }
}
