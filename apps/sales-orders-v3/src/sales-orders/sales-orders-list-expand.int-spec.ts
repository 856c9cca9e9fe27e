import { get as httpGet } from 'node:http';
import { orderPageQuery, parseSalesOrderListQuery } from '@erp/sales-orders-queries';
import { insertOrders } from '../testing/sales-orders-test-app';
import { useSalesOrdersListTestApp } from '../testing/sales-orders-list-kit';

/** Separate companies keep each concern's data apart in one database. */
const EXPAND = '3000003';
const SCALE = '3000004';

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

// The expanded pages, what a page costs the database, and which indexes answer the list's queries.
describe('GET /api/v3/SalesOrders: expand, query cost, indexes', () => {
  const { app, list } = useSalesOrdersListTestApp('list-expand', async (sql) => {
    await insertOrders(sql, EXPAND, 130, { linesPerOrder: 3 });
    await insertOrders(sql, EXPAND, 12, { linesPerOrder: 300, type: 'QT' });
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
      const headers = await app().headers(EXPAND);
      // More dropped clients than the pool has connections (10): a leak would make the next read hang.
      for (let i = 0; i < 15; i++) await readFirstChunkThenDisconnect(`${app().service.url}/api/v3/SalesOrders/QT?expand=all`, headers);
      expect((await list(EXPAND, '/api/v3/SalesOrders?pageSize=1')).status).toBe(200);
      const deadline = Date.now() + 10_000;
      let open = -1;
      while (Date.now() < deadline) {
        const rows = await app().sql.query(
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
        const response = await app().http.request(`/api/v3/SalesOrders?${bad}`, { headers: await app().headers(EXPAND) });
        expect(response.status).toBe(400);
      }
    });

    it('repeats expand in nextPage', async () => {
      const { page } = await list(EXPAND, '/api/v3/SalesOrders?expand=lines&expand=note&pageSize=50');
      expect(page.nextPage).toBe('/api/v3/SalesOrders?expand=lines&expand=note&pageSize=50&pageIndex=1');
    });
  });

  describe('query cost', () => {
    it('builds the JSON (and aggregates lines) only for the rows of the page, not for the rows skipped before it', async () => {
      const query = orderPageQuery(EXPAND, parseSalesOrderListQuery({ expand: 'lines', pageSize: '50', pageIndex: '2' }, undefined));
      const [{ 'QUERY PLAN': plan }] = (await app().sql.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values)).rows;
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
      await insertOrders(app().sql, SCALE, 20_000, { customerOrder: (i) => `REF-${i}` });
      await app().sql.query('ANALYZE sales_orders');
      // Only index choices are compared: a small test table may still be cheapest to scan whole.
      await app().sql.query('SET enable_seqscan = off');
      const plan = async (where: string) =>
        (await app().sql.query(`EXPLAIN (FORMAT TEXT) SELECT 1 FROM sales_orders o WHERE ${where}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(
        await plan(
          `o.company_id = '${SCALE}' AND lower(o.order_id || chr(1) || coalesce(o.customer_order, '') || chr(1) || o.customer_name) LIKE '%po-4711%'`,
        ),
      ).toContain('sales_orders_search_trgm_idx');
      expect(await plan(`o.company_id = '${SCALE}' AND o.customer_id = '99999'`)).toContain('sales_orders_company_customer_idx');
      expect(await plan(`o.company_id = '${SCALE}' AND o.last_modified_at >= now()`)).toContain('sales_orders_company_modified_idx');
      expect(await plan(`o.company_id = '${SCALE}' AND o.status = 'Cancelled'`)).toContain('sales_orders_company_status_idx');
      await app().sql.query('RESET enable_seqscan');
    });
  });
});
