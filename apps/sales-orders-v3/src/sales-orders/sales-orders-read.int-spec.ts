import { etagOfVersion } from '../testing/sales-orders-test-app';
import { A, NEW_ORDER, THOUSANDS_OF_ITEMS, WRITE_ITEMS, type Line, type Problem, useSalesOrdersWriteTestApp } from '../testing/sales-orders-write-kit';

describe('sales-orders-v3 read', () => {
  // The orders read here: SO 000001 (NEW_ORDER, two lines) and an order with 3000 lines.
  const { app, send, get } = useSalesOrdersWriteTestApp('write-read', {
    items: [...WRITE_ITEMS, ...THOUSANDS_OF_ITEMS],
    async seed({ create }) {
      await create(NEW_ORDER);
      const orderLines = THOUSANDS_OF_ITEMS.map((inventoryId, i) => ({ inventoryId, quantity: 1 + (i % 5), unitPrice: '19.99' }));
      await create({ type: 'SO', customer: { id: '10001' }, orderLines });
    },
  });

  describe('GET', () => {
    it('answers a GET whose If-None-Match holds the current ETag with 304 and no body; a stale one in full', async () => {
      const etag = (await get('/api/v3/SalesOrders/SO/000001')).response.headers.get('etag')!;
      const unchanged = await send('GET', '/api/v3/SalesOrders/SO/000001', undefined, { 'if-none-match': etag });
      expect([unchanged.status, unchanged.headers.get('etag'), await unchanged.text()]).toEqual([304, etag, '']);
      const stale = await send('GET', '/api/v3/SalesOrders/SO/000001', undefined, { 'if-none-match': '"0"' });
      expect(stale.status).toBe(200);
    });

    it('reads an order with its ETag; parts not expanded are left out', async () => {
      const { response, order } = await get('/api/v3/SalesOrders/SO/000001');
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(etagOfVersion(order.version));
      expect(Object.keys(order)).toEqual([
        'type',
        'orderId',
        'date',
        'requestOn',
        'cancelBy',
        'description',
        'currencyId',
        'status',
        'salesPerson',
        'isRotRutDeductable',
        'totals',
        'orderQty',
        'lastModified',
        'version',
      ]);
    });

    it.each([
      ['lines', ['lines']],
      ['customer', ['customer']],
      ['billing,shipping', ['billing', 'shipping']],
      ['payment', ['paymentSettings']],
      ['FinancialInformation', ['financialInformation']],
      ['note', ['note']],
      ['attachments', ['attachments']],
      ['Owner,Origin,Freight,None', ['freight']],
      ['ALL', ['note', 'customer', 'billing', 'shipping', 'paymentSettings', 'financialInformation', 'freight', 'lines', 'attachments']],
    ])('adds exactly the requested parts for expand=%s', async (expand, keys) => {
      const { order } = await get(`/api/v3/SalesOrders/SO/000001?expand=${expand}`);
      const optional = ['note', 'customer', 'billing', 'shipping', 'paymentSettings', 'financialInformation', 'lines', 'attachments', 'owner', 'origin', 'freight'];
      expect(optional.filter((k) => k in order).sort()).toEqual([...keys].sort());
    });

    it('accepts expand repeated and comma-separated in any case; unknown values are 400', async () => {
      const { order } = await get('/api/v3/SalesOrders/SO/000001?expand=Lines&expand=CUSTOMER,note');
      expect(['lines', 'customer', 'note'].every((k) => k in order)).toBe(true);
      const bad = await send('GET', '/api/v3/SalesOrders/SO/000001?expand=lines,commissions');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as Problem).errors).toHaveProperty('expand');
    });

    it('shows the customer’s current name from the snapshot under expand=customer', async () => {
      await app().sql.query(`UPDATE customer_snapshots SET name = 'Acme Holding AS' WHERE company_id = $1 AND customer_id = '10001'`, [A]);
      const { order } = await get('/api/v3/SalesOrders/SO/000001?expand=customer');
      expect(order.customer).toEqual({ id: '10001', name: 'Acme Holding AS', order: 'PO-4711', refNo: 'REF-1' });
      await app().sql.query(`UPDATE customer_snapshots SET name = 'Acme AS' WHERE company_id = $1 AND customer_id = '10001'`, [A]);
    });

    it('answers 404 in problem+json for unknown orders, unknown types and impossible ids', async () => {
      for (const path of ['/api/v3/SalesOrders/SO/999999', '/api/v3/SalesOrders/ZZ/000001', '/api/v3/SalesOrders/SO/..%2F..%2Fetc']) {
        const response = await send('GET', path);
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect((await response.json()) as Problem).toMatchObject({ status: 404, title: 'Not found', type: 'urn:erp:problem:not-found' });
      }
    });

    it('serves the lines sub-resource, paged like the list, and one line', async () => {
      const response = await send('GET', '/api/v3/SalesOrders/SO/000001/lines');
      expect(response.status).toBe(200);
      const page = (await response.json()) as { value: Line[]; totalCount: number; nextPage: string | null };
      expect(page.totalCount).toBe(2);
      expect(page.nextPage).toBeNull();
      expect(page.value.map((l) => l.lineId)).toEqual([1, 2]);
      const one = await send('GET', '/api/v3/SalesOrders/SO/000001/lines/2');
      expect(((await one.json()) as Line).inventory.id).toBe('STOCKITEM2');
      expect((await send('GET', '/api/v3/SalesOrders/SO/000001/lines/99')).status).toBe(404);
      expect((await send('GET', '/api/v3/SalesOrders/SO/000001/lines/abc')).status).toBe(404);
      expect((await send('GET', '/api/v3/SalesOrders/SO/999999/lines')).status).toBe(404);
    });

    it('pages the lines of a large order at 1000 by default and at most', async () => {
      const big = (await app().sql.query(`SELECT order_id FROM sales_orders WHERE company_id = $1 AND last_line_id = 3000`, [A])).rows[0].order_id as string;
      const first = (await (await send('GET', `/api/v3/SalesOrders/SO/${big}/lines`)).json()) as { value: Line[]; totalCount: number; nextPage: string };
      expect(first.value).toHaveLength(1000);
      expect(first.totalCount).toBe(3000);
      expect(first.nextPage).toBe(`/api/v3/SalesOrders/SO/${big}/lines?pageSize=1000&pageIndex=1`);
      const capped = (await (await send('GET', `/api/v3/SalesOrders/SO/${big}/lines?pageSize=5000&pageIndex=2`)).json()) as {
        value: Line[];
        nextPage: string | null;
      };
      expect(capped.value).toHaveLength(1000);
      expect(capped.value[0].lineId).toBe(2001);
      expect(capped.nextPage).toBeNull();
      const small = (await (await send('GET', `/api/v3/SalesOrders/SO/${big}/lines?pageSize=7&pageIndex=3`)).json()) as { value: Line[] };
      expect(small.value.map((l) => l.lineId)).toEqual([22, 23, 24, 25, 26, 27, 28]);
      expect((await send('GET', `/api/v3/SalesOrders/SO/${big}/lines?pageIndex=-1`)).status).toBe(400);
      expect((await send('GET', `/api/v3/SalesOrders/SO/${big}/lines?expand=lines`)).status).toBe(400);
    });
  });
});
