import { get as httpGet } from 'node:http';
import { orderPageQuery, parseSalesOrderListQuery } from '@erp/sales-orders-queries';
import { insertOrders, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

/** Separate companies keep each concern's data apart in one database. */
const PAGING = '3000001';
const FILTERS = '3000002';
const EXPAND = '3000003';
const SCALE = '3000004';
let t: SalesOrdersTestApp;

interface Summary {
  type: string;
  orderId: string;
  status: string;
  date: string;
  lastModified: string;
  customerId: string;
  customerName: string;
  customerOrder: string | null;
  customerRefNo: string | null;
  currency: string | null;
  orderTotal: number;
  orderQty: number;
  requestOn: string | null;
  description: string | null;
  lines?: unknown[];
}

interface Page {
  value: Summary[];
  totalCount: number;
  nextPage: string | null;
}

async function list(company: string, pathAndQuery: string): Promise<{ status: number; page: Page; text: string }> {
  const response = await t.http.request(pathAndQuery, { headers: await t.headers(company) });
  const text = await response.text();
  return { status: response.status, page: JSON.parse(text) as Page, text };
}

async function ids(company: string, pathAndQuery: string): Promise<string[]> {
  const { status, page } = await list(company, pathAndQuery);
  expect(status).toBe(200);
  return page.value.map((o) => `${o.type}/${o.orderId}`);
}

/** A client that reads the first chunk of a response and then drops the connection. */
function readFirstChunkThenDisconnect(url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers }, (response) => {
      expect(response.statusCode).toBe(200);
      response.once('data', () => {
        request.destroy();
        resolve();
      });
    });
    request.on('error', (error) => (request.destroyed ? resolve() : reject(error)));
  });
}

const range = (from: number, to: number, type = 'SO') =>
  Array.from({ length: to - from + 1 }, (_, k) => `${type}/${String(from + k).padStart(6, '0')}`);

describe('GET /api/v3/SalesOrders: paging, expand, filters, orderBy', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('list');
    await insertOrders(t.sql, PAGING, 1100);
    // FILTERS: SO 1-10 Acme/Open, SO 11-20 Fjord/Hold, QT 1-10 Nordic/Completed; last modified in reverse order.
    await insertOrders(t.sql, FILTERS, 10, {
      customerId: '10001',
      customerName: 'Acme AS',
      customerOrder: (i) => `PO-${1000 + i}`,
      modifiedOffsetSeconds: (i) => (31 - i) * 100,
    });
    await insertOrders(t.sql, FILTERS, 10, {
      customerId: '10002',
      customerName: 'Fjord Shipping AB',
      status: () => 'Hold',
      start: '2026-01-01T00:00:10Z',
      modifiedOffsetSeconds: (i) => (21 - i) * 100,
    });
    await insertOrders(t.sql, FILTERS, 10, {
      type: 'QT',
      customerId: '10003',
      customerName: 'Nordic 100% Timber_Works',
      status: () => 'Completed',
      start: '2026-01-01T00:00:20Z',
      modifiedOffsetSeconds: (i) => (11 - i) * 100,
    });
    await insertOrders(t.sql, EXPAND, 130, { linesPerOrder: 3 });
    await insertOrders(t.sql, EXPAND, 12, { linesPerOrder: 300, type: 'QT' });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  describe('paging', () => {
    it('uses pageSize 100 and the 0-based pageIndex 0 by default', async () => {
      const { page } = await list(PAGING, '/api/v3/SalesOrders');
      expect(page.value.map((o) => o.orderId)).toEqual(range(1, 100).map((id) => id.slice(3)));
      expect(page.totalCount).toBe(1100);
      expect(page.nextPage).toBe('/api/v3/SalesOrders?pageSize=100&pageIndex=1');
    });

    it('treats pageIndex as 0-based: pageIndex=1 is the second page', async () => {
      expect(await ids(PAGING, '/api/v3/SalesOrders?pageSize=25&pageIndex=1')).toEqual(range(26, 50));
    });

    it('cuts a pageSize above 1000 to 1000 and says so in nextPage', async () => {
      const { page } = await list(PAGING, '/api/v3/SalesOrders?pageSize=5000');
      expect(page.value).toHaveLength(1000);
      expect(page.nextPage).toBe('/api/v3/SalesOrders?pageSize=1000&pageIndex=1');
      const last = await list(PAGING, page.nextPage!);
      expect(last.page.value).toHaveLength(100);
      expect(last.page.nextPage).toBeNull();
    });

    it('reads 1100 orders at pageSize 300 by following nextPage: 300/300/300/200, none twice, then null', async () => {
      const sizes: number[] = [];
      const seen = new Set<string>();
      let next: string | null = '/api/v3/SalesOrders?pageSize=300';
      while (next) {
        const { page } = await list(PAGING, next);
        sizes.push(page.value.length);
        page.value.forEach((o) => seen.add(o.orderId));
        next = page.nextPage;
      }
      expect(sizes).toEqual([300, 300, 300, 200]);
      expect(seen.size).toBe(1100);
    });

    it('answers an empty page with nextPage null past the end', async () => {
      const { status, page } = await list(PAGING, '/api/v3/SalesOrders?pageIndex=50');
      expect(status).toBe(200);
      expect(page).toEqual({ value: [], totalCount: 1100, nextPage: null });
    });

    it.each(['pageSize=-1', 'pageSize=1.5', 'pageSize=abc', 'pageSize=0', 'pageIndex=-1', 'pageIndex=x', 'pageIndex=1&pageIndex=2'])(
      'refuses %s with 400 problem+json naming the parameter',
      async (query) => {
        const response = await t.http.request(`/api/v3/SalesOrders?${query}`, { headers: await t.headers(PAGING) });
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await response.json()) as { errors: Record<string, string[]> };
        expect(Object.keys(problem.errors)).toEqual([query.split('=')[0]]);
      },
    );

    it('refuses unknown parameters so a misspelt filter never returns everything', async () => {
      const response = await t.http.request('/api/v3/SalesOrders?customerID=10001', { headers: await t.headers(PAGING) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { details: Array<{ code: string }> }).details[0].code).toBe('0003-UnknownProperty');
    });
  });

  describe('expand', () => {
    it('returns summary rows without expand', async () => {
      const { page } = await list(EXPAND, '/api/v3/SalesOrders?pageSize=1');
      expect(Object.keys(page.value[0])).toEqual([
        'type',
        'orderId',
        'status',
        'date',
        'lastModified',
        'customerId',
        'customerName',
        'customerOrder',
        'customerRefNo',
        'currency',
        'orderTotal',
        'orderQty',
        'requestOn',
        'description',
      ]);
      expect(page.value[0]).toMatchObject({ type: 'SO', customerId: '10001', customerName: 'Acme AS', currency: 'NOK', status: 'Open' });
    });

    it('caps the page at 100 whenever anything is expanded, default included', async () => {
      for (const query of ['expand=lines&pageSize=1000', 'expand=note&pageSize=101', 'expand=lines']) {
        const { page } = await list(EXPAND, `/api/v3/SalesOrders?${query}`);
        expect(page.value).toHaveLength(100);
        expect(page.totalCount).toBe(142);
        expect(page.nextPage).toMatch(/pageSize=100&pageIndex=1$/);
      }
      const { page } = await list(EXPAND, '/api/v3/SalesOrders?expand=lines&pageSize=10');
      expect(page.value).toHaveLength(10);
    });

    it('returns full orders with the requested parts only', async () => {
      const { page } = await list(EXPAND, '/api/v3/SalesOrders/SO?expand=lines,customer&pageSize=2');
      const [first] = page.value as unknown as Array<Record<string, unknown>>;
      expect(first).toHaveProperty('lines');
      expect(first).toHaveProperty('customer');
      expect(first).not.toHaveProperty('billing');
      expect(first).toHaveProperty('totals');
      expect((first.lines as unknown[]).length).toBe(3);
    });

    it('streams a page of orders with 300 lines each as one valid envelope', async () => {
      const { page, text } = await list(EXPAND, '/api/v3/SalesOrders/QT?expand=all&pageSize=100');
      expect(page.value).toHaveLength(12);
      expect(page.value.every((o) => o.lines!.length === 300)).toBe(true);
      expect(page.nextPage).toBeNull();
      expect(text.length).toBeGreaterThan(12 * 300 * 100);
    });

    it('gives the connection back when a client goes away in the middle of a page', async () => {
      const headers = await t.headers(EXPAND);
      // More dropped clients than the pool has connections (10): a leak would make the next read hang.
      for (let i = 0; i < 15; i++) await readFirstChunkThenDisconnect(`${t.service.url}/api/v3/SalesOrders/QT?expand=all`, headers);
      expect((await list(EXPAND, '/api/v3/SalesOrders?pageSize=1')).status).toBe(200);
      const deadline = Date.now() + 10_000;
      let open = -1;
      while (Date.now() < deadline) {
        const rows = await t.sql.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state <> 'idle' AND application_name = 'sales-orders-v3'`,
        );
        open = rows.rows[0].n as number;
        if (open === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(open).toBe(0);
    });

    it('accepts repeated and mixed-case expand values; refuses unknown ones', async () => {
      expect((await list(EXPAND, '/api/v3/SalesOrders?expand=LINES&expand=Billing,payment&pageSize=1')).status).toBe(200);
      for (const bad of ['expand=lines,everything', 'expand=', 'expand=none']) {
        const response = await t.http.request(`/api/v3/SalesOrders?${bad}`, { headers: await t.headers(EXPAND) });
        expect(response.status).toBe(400);
      }
    });

    it('repeats expand in nextPage', async () => {
      const { page } = await list(EXPAND, '/api/v3/SalesOrders?expand=lines&expand=note&pageSize=50');
      expect(page.nextPage).toBe('/api/v3/SalesOrders?expand=lines&expand=note&pageSize=50&pageIndex=1');
    });
  });

  describe('filters', () => {
    it('lists one type under /{type}; an unknown type is 400', async () => {
      expect(await ids(FILTERS, '/api/v3/SalesOrders/QT')).toEqual(range(1, 10, 'QT'));
      expect((await list(FILTERS, '/api/v3/SalesOrders/QT')).page.totalCount).toBe(10);
      const response = await t.http.request('/api/v3/SalesOrders/XX', { headers: await t.headers(FILTERS) });
      expect(response.status).toBe(400);
    });

    it('filters by customerId and status, with totalCount for the filter', async () => {
      const byCustomer = await list(FILTERS, '/api/v3/SalesOrders?customerId=10002&pageSize=4');
      expect(byCustomer.page.totalCount).toBe(10);
      expect(byCustomer.page.value.map((o) => o.orderId)).toEqual(['000011', '000012', '000013', '000014']);
      expect(byCustomer.page.nextPage).toBe('/api/v3/SalesOrders?customerId=10002&pageSize=4&pageIndex=1');
      const held = await list(FILTERS, '/api/v3/SalesOrders?status=Hold');
      expect(held.page.totalCount).toBe(10);
      expect(held.page.value.every((o) => o.status === 'Hold')).toBe(true);
      expect((await list(FILTERS, '/api/v3/SalesOrders?status=completed')).page.totalCount).toBe(10);
      expect((await list(FILTERS, '/api/v3/SalesOrders/SO?status=Completed')).page.totalCount).toBe(0);
      expect((await list(FILTERS, '/api/v3/SalesOrders?customerId=&status=')).page.totalCount).toBe(30);
      const bad = await t.http.request('/api/v3/SalesOrders?status=Sleeping', { headers: await t.headers(FILTERS) });
      expect(bad.status).toBe(400);
    });

    it('filters by modifiedSince: UTC without an offset, the given offset otherwise, inclusive', async () => {
      // SO 1..10 were modified at 2026-01-01T00:00:00Z + i s + (31 - i) x 100 s.
      const so5 = (await list(FILTERS, '/api/v3/SalesOrders/SO?customerId=10001')).page.value[4];
      expect(so5.orderId).toBe('000005');
      expect(so5.lastModified).toBe('2026-01-01T00:43:25.000Z');
      const utc = await list(FILTERS, `/api/v3/SalesOrders/SO?customerId=10001&modifiedSince=2026-01-01T00:43:25`);
      expect(utc.page.value.map((o) => o.orderId)).toEqual(['000001', '000002', '000003', '000004', '000005']);
      const offset = await list(FILTERS, `/api/v3/SalesOrders/SO?customerId=10001&modifiedSince=${encodeURIComponent('2026-01-01T01:43:25+01:00')}`);
      expect(offset.page.totalCount).toBe(5);
      const echoed = await list(FILTERS, `/api/v3/SalesOrders/SO?customerId=10001&modifiedSince=${so5.lastModified}`);
      expect(echoed.page.totalCount).toBe(5);
      for (const bad of ['yesterday', '2026-13-01', '2026-01-01T25:00']) {
        const response = await t.http.request(`/api/v3/SalesOrders?modifiedSince=${bad}`, { headers: await t.headers(FILTERS) });
        expect(response.status).toBe(400);
      }
    });

    it('matches filter case-insensitively against orderId, customer order number and customer name', async () => {
      expect(await ids(FILTERS, '/api/v3/SalesOrders?filter=00001')).toEqual(['SO/000001', ...range(10, 19), 'QT/000001', 'QT/000010']);
      expect(await ids(FILTERS, '/api/v3/SalesOrders?filter=po-1003')).toEqual(['SO/000003']);
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=FJORD%20ship')).page.totalCount).toBe(10);
      // % and _ are literal characters, never wildcards.
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=100%25%20timber_')).page.totalCount).toBe(10);
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=%25')).page.totalCount).toBe(10);
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=_')).page.totalCount).toBe(10);
      // A match never spans two fields.
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=0001po')).page.totalCount).toBe(0);
    });

    it('combines filters and keeps them all in nextPage', async () => {
      const { page } = await list(FILTERS, '/api/v3/SalesOrders/SO?status=Open&filter=acme&orderBy=orderId%20desc&pageSize=3');
      expect(page.totalCount).toBe(10);
      expect(page.value.map((o) => o.orderId)).toEqual(['000010', '000009', '000008']);
      expect(page.nextPage).toBe('/api/v3/SalesOrders/SO?status=Open&filter=acme&orderBy=orderId%20desc&pageSize=3&pageIndex=1');
      const second = await list(FILTERS, page.nextPage!);
      expect(second.page.value.map((o) => o.orderId)).toEqual(['000007', '000006', '000005']);
    });
  });

  describe('orderBy', () => {
    it('orders by created ascending by default', async () => {
      expect(await ids(FILTERS, '/api/v3/SalesOrders?pageSize=30')).toEqual([...range(1, 10), ...range(11, 20), ...range(1, 10, 'QT')]);
    });

    it.each([
      ['created desc', (all: string[]) => [...all].reverse()],
      ['CREATED ASC', (all: string[]) => all],
    ])('orders by %s', async (orderBy, expected) => {
      const all = [...range(1, 10), ...range(11, 20), ...range(1, 10, 'QT')];
      expect(await ids(FILTERS, `/api/v3/SalesOrders?orderBy=${encodeURIComponent(orderBy)}`)).toEqual(expected(all));
    });

    it('orders by lastModified, asc by default, desc when asked', async () => {
      const asc = await ids(FILTERS, '/api/v3/SalesOrders?orderBy=lastModified');
      expect(asc.slice(0, 3)).toEqual(['QT/000010', 'QT/000009', 'QT/000008']);
      expect(await ids(FILTERS, '/api/v3/SalesOrders?orderBy=lastModified%20desc')).toEqual([...asc].reverse());
    });

    it('orders by orderId, the type breaking ties', async () => {
      const asc = await ids(FILTERS, '/api/v3/SalesOrders?orderBy=orderId&pageSize=4');
      expect(asc).toEqual(['QT/000001', 'SO/000001', 'QT/000002', 'SO/000002']);
      const desc = await ids(FILTERS, '/api/v3/SalesOrders?orderBy=orderid+desc&pageSize=3');
      expect(desc).toEqual(['SO/000020', 'SO/000019', 'SO/000018']);
    });

    it('pages a stable order: every order exactly once across pages for each orderBy', async () => {
      for (const orderBy of ['created', 'lastModified desc', 'orderId']) {
        const seen: string[] = [];
        let next: string | null = `/api/v3/SalesOrders?orderBy=${encodeURIComponent(orderBy)}&pageSize=7`;
        while (next) {
          const { page } = await list(FILTERS, next);
          seen.push(...page.value.map((o) => `${o.type}/${o.orderId}`));
          next = page.nextPage;
        }
        expect(new Set(seen).size).toBe(30);
        expect(seen).toHaveLength(30);
      }
    });

    it.each(['name', 'created sideways', 'created,orderId', ''])('refuses orderBy=%j', async (orderBy) => {
      const response = await t.http.request(`/api/v3/SalesOrders?orderBy=${encodeURIComponent(orderBy)}`, { headers: await t.headers(FILTERS) });
      expect(response.status).toBe(400);
    });
  });

  describe('query cost', () => {
    it('builds the JSON (and aggregates lines) only for the rows of the page, not for the rows skipped before it', async () => {
      const query = orderPageQuery(EXPAND, parseSalesOrderListQuery({ expand: 'lines', pageSize: '50', pageIndex: '2' }, undefined));
      const [{ 'QUERY PLAN': plan }] = (await t.sql.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values)).rows;
      const loops: number[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (node['Relation Name'] === 'sales_order_lines') loops.push(node['Actual Loops'] as number);
        for (const child of (node.Plans as Array<Record<string, unknown>> | undefined) ?? []) walk(child);
      };
      walk((plan as Array<{ Plan: Record<string, unknown> }>)[0].Plan);
      // 142 orders: page 2 at size 50 holds 42, and only those 42 read their lines.
      expect(loops).toEqual([42]);
    });
  });

  describe('indexes', () => {
    it('answers the text filter from the trigram index and the others from company-led indexes', async () => {
      // Enough rows in one company that the planner's choice means something.
      await insertOrders(t.sql, SCALE, 20_000, { customerOrder: (i) => `REF-${i}` });
      await t.sql.query('ANALYZE sales_orders');
      // Only index choices are compared: a small test table may still be cheapest to scan whole.
      await t.sql.query('SET enable_seqscan = off');
      const plan = async (where: string) =>
        (await t.sql.query(`EXPLAIN (FORMAT TEXT) SELECT 1 FROM sales_orders o WHERE ${where}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(
        await plan(
          `o.company_id = '${SCALE}' AND lower(o.order_id || chr(1) || coalesce(o.customer_order, '') || chr(1) || o.customer_name) LIKE '%po-4711%'`,
        ),
      ).toContain('sales_orders_search_trgm_idx');
      expect(await plan(`o.company_id = '${SCALE}' AND o.customer_id = '99999'`)).toContain('sales_orders_company_customer_idx');
      expect(await plan(`o.company_id = '${SCALE}' AND o.last_modified_at >= now()`)).toContain('sales_orders_company_modified_idx');
      expect(await plan(`o.company_id = '${SCALE}' AND o.status = 'Cancelled'`)).toContain('sales_orders_company_status_idx');
      await t.sql.query('RESET enable_seqscan');
    });
  });
});
