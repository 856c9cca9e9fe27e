import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The time bucket's width as a function, so that the query code (`@erp/sales-orders-queries`,
 * order-list-cells.ts) calls it instead of repeating the width of `sales_order_time_bucket()`
 * (1766100000000, 2^21 s): a bucket's start is its first instant; the next bucket's start is the end
 * of this one. (The order id buckets are text prefixes, `sales_order_id_bucket()`: no width to
 * repeat.) Test `sales-order-bucket-functions.int-spec.ts` checks it against the cells the triggers
 * write.
 *
 * Plain `LANGUAGE sql`, IMMUTABLE, without SET or SECURITY DEFINER: the planner inlines it, so a
 * bound of an index scan stays a constant the index answers. In schema public, which the request
 * role `<db>_app` reaches (its search_path ends with public); EXECUTE is PUBLIC's by default.
 */
export class CreateSalesOrderBucketFunctions1766800000000 implements MigrationInterface {
  name = 'CreateSalesOrderBucketFunctions1766800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION public.sales_order_time_bucket_start(bucket integer) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT to_timestamp((bucket::bigint << 21)::float8) $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION public.sales_order_time_bucket_start(integer)`);
  }
}
