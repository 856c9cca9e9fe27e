import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type CountCellTableV1, createCountCellsV1, dropCountCellsV1 } from '@erp/database';

const TABLES: CountCellTableV1[] = [
  {
    name: 'sales_order_time_cells',
    columns: [['modified_bucket', 'integer'], ['created_bucket', 'integer'], ['order_type', 'varchar(2)'], ['status', 'varchar(20)']],
    cell: 'sales_order_time_bucket(last_modified_at), sales_order_time_bucket(created_at), order_type, status',
  },
  {
    name: 'sales_order_id_cells',
    columns: [['modified_bucket', 'integer'], ['id_bucket', 'varchar(15)'], ['order_type', 'varchar(2)'], ['status', 'varchar(20)']],
    cell: 'sales_order_time_bucket(last_modified_at), sales_order_id_bucket(order_id), order_type, status',
  },
];

/**
 * Exact order counts for the order list (`GET /api/v3/SalesOrders[/{type}]`), so that every page
 * of every orderBy, unfiltered or filtered by `{type}`, `status` and `modifiedSince`, starts with a
 * seek instead of an OFFSET over the company (`@erp/sales-orders-queries`, order-list-cells.ts):
 * - `sales_order_time_cells`: rows per (company, last_modified_at bucket, created_at bucket, type,
 *   status), a time bucket being 2^21 s of epoch time (about 24 days); orderBy created and
 *   lastModified read it.
 * - `sales_order_id_cells`: rows per (company, last_modified_at bucket, first 3 characters of the
 *   order id, type, status); orderBy orderId reads it. A prefix is a range of the order id's order
 *   because ids are digits only (see libs/sales-orders-queries/README.md on collations).
 * Statement triggers with transition tables keep both exact, like the customers' buckets: deltas
 * (+1 per new row, -1 per old row, an update whose cells stay the same cancels out) are grouped and
 * upserted in key order, time cells before id cells, so concurrent writers lock cells in one order
 * and the counts commit or roll back with the rows. Every write moves last_modified_at, so an update
 * moves its order to the current modified bucket (a delete plus an insert of cells).
 *
 * The first CREATE TRIGGER takes a SHARE ROW EXCLUSIVE lock on sales_orders until this migration
 * commits: writes wait through the backfill (one grouped scan), so no row is missed by the backfill
 * and written without its trigger. The covering indexes the seeks read come next (1766100000001).
 */
export class CreateSalesOrderListCells1766100000000 implements MigrationInterface {
  name = 'CreateSalesOrderListCells1766100000000';

  async up(q: QueryRunner): Promise<void> {
    // floor, not a cast: a cast rounds, and 0.6 s before a bucket's end would land in the next one.
    await q.query(`
      CREATE FUNCTION sales_order_time_bucket(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT (floor(extract(epoch FROM at))::bigint >> 21)::integer $$`);
    await q.query(`
      CREATE FUNCTION sales_order_id_bucket(order_id text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT left(order_id, 3) $$`);
    await createCountCellsV1(q, 'sales_orders', 'sales_order_list_cells', TABLES);
  }

  async down(q: QueryRunner): Promise<void> {
    await dropCountCellsV1(q, 'sales_orders', 'sales_order_list_cells', TABLES);
    await q.query(`DROP FUNCTION sales_order_id_bucket(text)`);
    await q.query(`DROP FUNCTION sales_order_time_bucket(timestamptz)`);
  }
}
