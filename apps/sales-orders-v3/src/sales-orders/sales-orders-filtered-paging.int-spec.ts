import { expectPageMatchesOracle, expectWalkMatchesOracle, type OracleList, timeBucketStart } from '@erp/testing';
import { startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const COMPANY = '3100001';
const OTHER = '3100002';
const PAGE_SIZE = 700;
let t: SalesOrdersTestApp;
let headers: Record<string, string>;

interface Page {
  value: Array<{ type: string; orderId: string }>;
  totalCount: number;
  nextPage: string | null;
}

interface Filter {
  name: string;
  /** `/{type}` or ''. */
  type: string;
  query: Record<string, string>;
}

/** A time bucket's first instant, as the schema cuts the cells' buckets (`sales_order_time_bucket()`). */
const bucketStart = async (iso: string) => (await timeBucketStart(t.sql, 'sales_order_time_bucket', iso)).toISOString();

const ORDER_BYS = ['created', 'created desc', 'lastModified', 'lastModified desc', 'orderId', 'orderId desc'];

// The list's SQL, written independently of the service's: the oracle every page is checked against.
const ORACLE_ORDER: Record<string, string> = {
  created: 'created_at, internal_id',
  lastModified: 'last_modified_at, internal_id',
  orderId: 'order_id, order_type',
};

async function expectedOrders(filter: Filter, orderBy: string): Promise<string[]> {
  const values: unknown[] = [COMPANY];
  const conditions = ['company_id = $1'];
  const add = (sql: string, value: unknown) => {
    values.push(value);
    conditions.push(sql.replace('?', `$${values.length}`));
  };
  if (filter.type !== '') add('order_type = ?', filter.type.slice(1));
  const q = filter.query;
  if (q['status'] !== undefined) add('status = ?', q['status']);
  if (q['customerId'] !== undefined) add('customer_id = ?', q['customerId']);
  if (q['modifiedSince'] !== undefined) add('last_modified_at >= ?::timestamptz', q['modifiedSince']);
  if (q['filter'] !== undefined) {
    add(`strpos(lower(order_id || chr(1) || coalesce(customer_order, '') || chr(1) || customer_name), ?) > 0`, q['filter'].toLowerCase());
  }
  const [field, direction] = orderBy.split(' ');
  const order = ORACLE_ORDER[field]
    .split(', ')
    .map((column) => `${column} ${direction === 'desc' ? 'DESC' : 'ASC'}`)
    .join(', ');
  const { rows } = await t.sql.query<{ id: string }>(
    `SELECT order_type || '/' || order_id AS id FROM sales_orders WHERE ${conditions.join(' AND ')} ORDER BY ${order}`,
    values,
  );
  return rows.map((r) => r.id);
}

async function page(filter: Filter, orderBy: string, pageIndex: number): Promise<{ ids: string[]; total: number }> {
  const search = new URLSearchParams({ ...filter.query, orderBy, pageSize: String(PAGE_SIZE), pageIndex: String(pageIndex) });
  const response = await t.http.request(`/api/v3/SalesOrders${filter.type}?${search}`, { headers });
  expect(response.status).toBe(200);
  const body = (await response.json()) as Page;
  return { ids: body.value.map((o) => `${o.type}/${o.orderId}`), total: body.totalCount };
}

/** The list with one filter and orderBy, read through the service and checked against the oracle. */
function oracleList(filter: Filter, orderBy: string): OracleList {
  return {
    label: { filter: filter.name, orderBy },
    pageSize: PAGE_SIZE,
    firstPage: 0,
    emptyPageHasTotal: true,
    expected: () => expectedOrders(filter, orderBy),
    read: async (pageIndex) => {
      const { ids, total } = await page(filter, orderBy, pageIndex);
      return { keys: ids, total };
    },
  };
}

/** Both cell tables must equal a fresh count of the orders, cell by cell; the search texts, the orders' own. */
async function expectCellsExact(): Promise<void> {
  for (const [table, bucket, rowBucket] of [
    ['sales_order_time_cells', 'created_bucket', 'sales_order_time_bucket(created_at)'],
    ['sales_order_id_cells', 'id_bucket', 'left(order_id, 3)'],
  ]) {
    const { rows } = await t.sql.query(
      `SELECT '${table}' AS table, k.*, b.row_count AS kept FROM (
         SELECT company_id, sales_order_time_bucket(last_modified_at) AS modified_bucket, ${rowBucket} AS ${bucket}, order_type, status,
                count(*)::int AS counted
         FROM sales_orders GROUP BY 1, 2, 3, 4, 5) k
       FULL JOIN ${table} b USING (company_id, modified_bucket, ${bucket}, order_type, status)
       WHERE coalesce(k.counted, 0) <> coalesce(b.row_count, 0)`,
    );
    expect(rows).toEqual([]);
  }
  // The search texts the filter's count reads (migration 1766200000000): one row per order, equal to a fresh computation.
  const { rows } = await t.sql.query(
    `SELECT * FROM (
       SELECT internal_id, company_id, order_type, status,
              lower(order_id || chr(1) || coalesce(customer_order, '') || chr(1) || customer_name) AS search_text
       FROM sales_orders) k
     FULL JOIN sales_order_search_texts s USING (internal_id, company_id, order_type, status, search_text)
     WHERE k.internal_id IS NULL OR s.internal_id IS NULL`,
  );
  expect(rows).toEqual([]);
}

let filters: Filter[];

describe('GET /api/v3/SalesOrders filtered paging at every depth, every orderBy', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('filtered-paging');
    headers = await t.headers(COMPANY);
    // 9,000 orders over ~40 time buckets and 9 order id prefixes per type, three types numbered on
    // their own, every tenth in another company; a third modified up to 300 days after creation (all
    // before now). Four customers: a customer's pages past the middle are read from the other end.
    await t.sql.query(
      `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, customer_id, customer_name, customer_order,
         billing, shipping, payment_settings, attachments, created_at, last_modified_at, grand_total)
       SELECT company, type, lpad((row_number() OVER (PARTITION BY company, type ORDER BY i))::text, 6, '0'),
              (ARRAY['Open', 'Open', 'Open', 'Hold', 'BackOrder', 'Completed', 'Cancelled'])[1 + abs(hashint4(i)) % 7],
              date_trunc('day', created), '1' || lpad((abs(hashint4(i * 3)) % 4)::text, 4, '0'),
              CASE WHEN i % 9 = 0 THEN 'Nordbygg AS' ELSE 'Customer ' || i END, 'PO-' || i,
              '{"address": null, "contact": null}', '{"address": null, "contact": null}', '{"terms": null, "method": null}', '[]',
              created, CASE WHEN abs(hashint4(i * 7)) % 3 = 0 THEN created + (abs(hashint4(i * 13)) % 300) * interval '1 day' ELSE created END, 0
       FROM generate_series(1, 10000) AS i,
            LATERAL (SELECT CASE WHEN i % 10 = 0 THEN $2 ELSE $1 END AS company,
                            (ARRAY['SO', 'SO', 'SO', 'QT', 'CM'])[1 + abs(hashint4(i * 5)) % 5] AS type,
                            timestamptz '2023-01-01T00:00:00Z' + i * interval '150 minutes' + (i % 1000) * interval '1 millisecond' AS created) c
       ORDER BY i`,
      [COMPANY, OTHER],
    );
    const { rows } = await t.sql.query<{ modified: Date }>(
      `SELECT last_modified_at AS modified FROM sales_orders WHERE company_id = $1 AND last_modified_at <> created_at ORDER BY internal_id OFFSET 2000 LIMIT 1`,
      [COMPANY],
    );
    const rowModified = rows[0].modified.toISOString();
    const boundary = await bucketStart('2024-03-01T00:00:00Z');
    filters = [
      { name: 'unfiltered', type: '', query: {} },
      { name: 'status=Open', type: '', query: { status: 'Open' } },
      { name: 'status=Cancelled', type: '', query: { status: 'Cancelled' } },
      { name: "modifiedSince a row's", type: '', query: { modifiedSince: rowModified } },
      { name: 'modifiedSince a bucket boundary', type: '', query: { modifiedSince: boundary } },
      { name: 'modifiedSince before everything', type: '', query: { modifiedSince: '2020-01-01T00:00:00Z' } },
      { name: 'modifiedSince after everything', type: '', query: { modifiedSince: '2030-01-01T00:00:00Z' } },
      { name: 'status + modifiedSince', type: '', query: { status: 'Hold', modifiedSince: rowModified } },
      { name: 'type QT', type: '/QT', query: {} },
      { name: 'type SO + status', type: '/SO', query: { status: 'Open' } },
      { name: 'type SO + modifiedSince', type: '/SO', query: { modifiedSince: boundary } },
      { name: 'customerId', type: '', query: { customerId: '10001' } },
      { name: 'customerId + status', type: '', query: { customerId: '10001', status: 'Open' } },
      { name: 'customerId + modifiedSince', type: '', query: { customerId: '10001', modifiedSince: boundary } },
      { name: 'filter', type: '', query: { filter: 'BYGG' } },
      // More matches than FILTER_MATCHES_COLLECTED (every customer order of the company): the page walks the sort key's index.
      { name: 'filter matching most orders', type: '', query: { filter: 'po-' } },
      { name: 'filter + type SO + status', type: '/SO', query: { filter: 'bygg', status: 'Open' } },
      { name: 'filter + modifiedSince', type: '', query: { filter: 'bygg', modifiedSince: boundary } },
    ];
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('keeps the list cells equal to a fresh count after a bulk insert', async () => {
    await expectCellsExact();
  });

  it('answers every page of every filter and orderBy exactly as the plain SQL does, totals included, with no overlap or gap', async () => {
    for (const filter of filters) {
      for (const orderBy of ORDER_BYS) await expectWalkMatchesOracle(oracleList(filter, orderBy));
    }
  }, 180_000);

  it('answers each page exactly for the current data while orders are created, updated and deleted between requests', async () => {
    const watched = filters.filter((f) =>
      ["modifiedSince a row's", 'status + modifiedSince', 'type SO + status', 'unfiltered', 'customerId', 'modifiedSince a bucket boundary', 'filter', 'filter + type SO + status'].includes(
        f.name,
      ),
    );
    let next = 900_000;
    for (let step = 0; step < 14; step++) {
      const filter = watched[step % watched.length];
      const orderBy = ORDER_BYS[step % ORDER_BYS.length];
      // Create (new ids at the end of every order), update (last_modified_at to now or back in time,
      // sometimes the status), delete: across every bucket.
      await t.sql.query(
        `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, customer_id, customer_name,
           billing, shipping, payment_settings, attachments, created_at, last_modified_at, grand_total)
         SELECT $1, (ARRAY['SO', 'QT'])[1 + i % 2], i::text, 'Open', now(), '10001', 'New ' || i,
           '{"address": null, "contact": null}', '{"address": null, "contact": null}', '{"terms": null, "method": null}', '[]', now(), now(), 0
         FROM generate_series($2::int, $2::int + 30) AS i`,
        [COMPANY, next],
      );
      next += 31;
      await t.sql.query(
        `UPDATE sales_orders SET last_modified_at = date_trunc('milliseconds', now()) - (abs(hashint4(internal_id::int + $2)) % 400) * interval '1 day',
                status = CASE WHEN internal_id % 2 = 0 THEN 'Hold' ELSE status END
         WHERE company_id = $1 AND abs(hashint4(internal_id::int * 31 + $2)) % 150 = 0`,
        [COMPANY, step],
      );
      // Customer names (the filter's text) change both ways.
      await t.sql.query(
        `UPDATE sales_orders SET customer_name = CASE WHEN lower(customer_name) LIKE '%bygg%' THEN 'Renamed ' || internal_id ELSE 'Renamed Bygg ' || internal_id END,
                last_modified_at = date_trunc('milliseconds', now())
         WHERE company_id = $1 AND abs(hashint4(internal_id::int * 37 + $2)) % 120 = 0`,
        [COMPANY, step],
      );
      await t.sql.query(`DELETE FROM sales_orders WHERE company_id = $1 AND abs(hashint4(internal_id::int * 17 + $2)) % 200 = 0`, [COMPANY, step]);
      for (const pageIndex of [0, 1 + (step % 5), 8 + (step % 4)]) await expectPageMatchesOracle(oracleList(filter, orderBy), pageIndex);
    }
    await expectCellsExact();
  }, 180_000);

  it('never repeats or skips an order in a modifiedSince walk by lastModified while orders are created between pages', async () => {
    const filter = filters.find((f) => f.name === 'modifiedSince before everything') as Filter;
    const before = await expectedOrders(filter, 'lastModified');
    const walked: string[] = [];
    const appended: string[] = [];
    for (let pageIndex = 0; ; pageIndex++) {
      const { ids, total } = await page(filter, 'lastModified', pageIndex);
      walked.push(...ids);
      if (ids.length === 0 || walked.length >= total) break;
      // Orders created now go to the end of this order.
      const { rows } = await t.sql.query<{ id: string }>(
        `WITH created AS (
           INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, customer_id, customer_name,
             billing, shipping, payment_settings, attachments, created_at, last_modified_at, grand_total)
           VALUES ($1, 'IN', 'W' || $2, 'Open', now(), '10001', 'Walk', '{"address": null, "contact": null}', '{"address": null, "contact": null}',
             '{"terms": null, "method": null}', '[]', clock_timestamp(), clock_timestamp(), 0)
           RETURNING order_type || '/' || order_id AS id)
         SELECT id FROM created`,
        [COMPANY, pageIndex],
      );
      appended.push(rows[0].id);
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual([...before, ...appended]);
    await expectCellsExact();
  }, 120_000);

  it('refuses a bad modifiedSince or orderBy with a 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['modifiedSince=2026-02-30', 'modifiedSince'],
      ['orderBy=created%20sideways', 'orderBy'],
    ]) {
      const response = await t.http.request(`/api/v3/SalesOrders?${query}`, { headers });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(parameter);
    }
  });
});
