import type { Client } from 'pg';
import { bucketFunctionDisagreements, type BucketSchema, instantsAroundBucketStarts, planOf, timeBucketStart } from '@erp/testing';
import { orderCellPageQuery, orderPageStartQuery, parseSalesOrderListQuery, SUMMARY_JSON } from '@erp/sales-orders-queries';
import { useSalesOrdersListTestApp } from '../testing/sales-orders-list-kit';

const COMPANY = '3100001';
const TIME_BUCKETS = [
  { cell: 'modified_bucket', row: 'last_modified_at', start: 'sales_order_time_bucket_start' },
  { cell: 'created_bucket', row: 'created_at', start: 'sales_order_time_bucket_start' },
];
const SAME = ['company_id', 'order_type', 'status'];
const TIME = { bucket: 'sales_order_time_bucket', start: 'sales_order_time_bucket_start' };
/** The function of migration 1766800000000, the only place the query code learns the width from, and the cells it must agree with. */
const SCHEMA: BucketSchema = {
  cells: [
    { cells: 'sales_order_time_cells', rows: 'sales_orders', same: SAME, buckets: TIME_BUCKETS },
    { cells: 'sales_order_id_cells', rows: 'sales_orders', same: SAME, buckets: TIME_BUCKETS.slice(0, 1), extra: 'cell.id_bucket = sales_order_id_bucket(r.order_id)' },
  ],
  enclosed: ['last_modified_at', 'created_at'].map((column) => ({ table: 'sales_orders', column, ...TIME })),
  functions: [`${TIME.start}(integer)`],
};

/** Orders at every time edge, created at the edges in reverse order, so that both timestamps meet every edge. */
async function seed(sql: Client): Promise<void> {
  const instants = await instantsAroundBucketStarts(sql, 'sales_order_time_bucket', '2024-06-01T00:00:00Z');
  await sql.query(
    `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, customer_id, customer_name,
       billing, shipping, payment_settings, attachments, created_at, last_modified_at, grand_total)
     SELECT $1, 'SO', lpad((i * 97)::text, 6, '0'), CASE WHEN i % 2 = 0 THEN 'Open' ELSE 'Hold' END, date_trunc('day', modified), '10001', 'Edge ' || i,
            '{"address": null, "contact": null}', '{"address": null, "contact": null}', '{"terms": null, "method": null}', '[]', created, modified, 0
     FROM unnest($2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS r (modified, created, i)`,
    [COMPANY, instants, [...instants].reverse()],
  );
}

/**
 * The time bucket's width lives in the schema only (migration 1766800000000): the list's statements
 * call `sales_order_time_bucket_start()`, while the triggers of 1766100000000 write the cells with
 * `sales_order_time_bucket()`. Orders placed just around bucket starts must be read back, through
 * the start function, from exactly the cells the triggers put them in, and the list through the
 * service must still answer them.
 */
describe('sales-orders-v3 bucket functions', () => {
  const kit = useSalesOrdersListTestApp('bucket-functions', seed);
  const sql = () => kit.app().sql;
  const boundary = async () => (await timeBucketStart(sql(), 'sales_order_time_bucket', '2024-06-01T00:00:00Z')).toISOString();

  it('reads every order back from the cells its triggers wrote, puts every instant in its bucket, and lets the request role call the function', async () => {
    expect(await bucketFunctionDisagreements(sql(), SCHEMA)).toEqual({ cells: [], outside: [], refused: [] });
  });

  it.each(['created', 'created desc', 'lastModified desc'])('lists the orders since a bucket start through the service, by %s', async (orderBy) => {
    const since = await boundary();
    const [field, direction] = orderBy.split(' ');
    const column = field === 'created' ? 'created_at' : 'last_modified_at';
    const { rows } = await sql().query<{ id: string }>(
      `SELECT order_type || '/' || order_id AS id FROM sales_orders WHERE company_id = $1 AND last_modified_at >= $2
       ORDER BY ${column} ${direction === 'desc' ? 'DESC' : 'ASC'}, internal_id ${direction === 'desc' ? 'DESC' : 'ASC'}`,
      [COMPANY, since],
    );
    const walked: string[] = [];
    for (let pageIndex = 0; pageIndex * 3 <= rows.length; pageIndex++) {
      const search = new URLSearchParams({ orderBy, modifiedSince: since, pageSize: '3', pageIndex: String(pageIndex) });
      walked.push(...(await kit.ids(COMPANY, `/api/v3/SalesOrders?${search}`)));
    }
    expect(walked).toEqual(rows.map((r) => r.id));
  });

  it('leaves no bucket function in the plan of a page: the planner inlines it into constants and index bounds', async () => {
    const query = parseSalesOrderListQuery({ orderBy: 'created', modifiedSince: await boundary(), pageSize: '3', pageIndex: '1' }, undefined);
    const start = orderPageStartQuery(COMPANY, query);
    const [placed] = (await sql().query(start.text, start.values)).rows;
    for (const plan of [await planOf(sql(), start), await planOf(sql(), orderCellPageQuery(COMPANY, query, placed, SUMMARY_JSON))]) {
      expect(plan).not.toContain('sales_order_time_bucket_start');
    }
  });
});
