import type { ProblemBody } from '@erp/errors';
import { etagOfVersion, insertCustomerSnapshots, orderRows, outboxRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';
import { plainTotals } from '../testing/order-totals-model';

const A = '1000001';
const B = '1000002';
let t: SalesOrdersTestApp;

interface Order {
  orderId: string;
  totals: { discountTotal: number; orderTotal: number };
  orderQty: number;
  lines: Array<{ lineId: number; inventory: { id: string }; quantity: number; unitPrice: number; discountPercent: number; extendedPrice: number; note: string | null }>;
  version: string;
}

type Problem = ProblemBody;

async function send(method: string, path: string, options: { body?: unknown; ifMatch?: string; company?: string } = {}): Promise<Response> {
  const headers = await t.headers(options.company ?? A, options.ifMatch ? { 'if-match': options.ifMatch } : {});
  if (options.body === undefined) delete headers['content-type'];
  return t.http.request(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

/** A new order of company A with two lines (ids 1 and 2): its path and ETag. */
async function newOrder(): Promise<{ path: string; etag: string }> {
  const response = await send('POST', '/api/v3/SalesOrders', {
    body: {
      type: 'SO',
      customer: { id: '10001' },
      orderLines: [
        { inventoryId: 'ITEM1', quantity: 4, unitPrice: 101.25 },
        { inventoryId: 'ITEM2', quantity: '2.5', unitPrice: '10.10', discountPercent: 10 },
      ],
    },
  });
  expect(response.status).toBe(201);
  return { path: response.headers.get('location')!, etag: response.headers.get('etag')! };
}

async function read(path: string): Promise<{ order: Order; etag: string }> {
  const response = await send('GET', `${path}?expand=lines`);
  return { order: (await response.json()) as Order, etag: response.headers.get('etag')! };
}

async function problemOf(response: Response): Promise<Problem> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as Problem;
}

async function updatedEvents(): Promise<Array<{ event_type: string; payload: Record<string, unknown> }>> {
  return (await outboxRows(t.sql)).filter((row) => row.event_type === 'SALESORDER_UPDATED');
}

/** Expects a 202 with no body whose ETag is the order's new version, and the one new SALESORDER_UPDATED event carrying it. */
async function expectChanged(response: Response, path: string, eventsBefore: number): Promise<Order> {
  expect(response.status).toBe(202);
  expect(await response.text()).toBe('');
  const { order, etag } = await read(path);
  expect(response.headers.get('etag')).toBe(etag);
  expect(etag).toBe(etagOfVersion(order.version));
  const events = await updatedEvents();
  expect(events).toHaveLength(eventsBefore + 1);
  expect(events.at(-1)!.payload.data).toMatchObject({ orderId: order.orderId, version: etag.slice(1, -1), link: path });
  return order;
}

describe('sales-orders-v3 line operations (POST, PATCH, DELETE .../lines)', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('lines');
    await insertCustomerSnapshots(t, A, [{ id: '10001', name: 'Acme AS' }]);
    await putInventoryItems(t, A, ['ITEM1', 'ITEM2', 'ITEM3', 'OK', 'X', 'A', 'OTHER']);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  describe('success: 202, no body, the new ETag, totals recomputed, SALESORDER_UPDATED in the outbox', () => {
    it('POST adds lines after the last one (Location names the order)', async () => {
      const { path, etag } = await newOrder();
      const events = (await updatedEvents()).length;
      const response = await send('POST', `${path}/lines`, {
        ifMatch: etag,
        body: { lines: [{ inventoryId: 'ITEM3', quantity: 3, unitPrice: '0.333', discountPercent: 50, operation: null }] },
      });
      expect(response.headers.get('location')).toBe(path);
      const order = await expectChanged(response, path, events);
      expect(order.lines.map((l) => l.lineId)).toEqual([1, 2, 3]);
      // 405.00 + 22.73 (25.25 less 10 %) + 0.50 (0.999 less 50 %, half away from zero)
      expect(order.lines[2]).toMatchObject({ inventory: { id: 'ITEM3' }, extendedPrice: 0.5 });
      expect(order.totals).toEqual(plainTotals({ orderTotal: 428.23, discountTotal: 3.02 }));
      expect(order.orderQty).toBe(9.5);
    });

    it('PATCH updates the lines each entry names, only the fields sent', async () => {
      const { path, etag } = await newOrder();
      const events = (await updatedEvents()).length;
      const response = await send('PATCH', `${path}/lines`, {
        ifMatch: etag,
        body: { lines: [{ lineId: 2, quantity: 5, note: 'rush' }, { lineId: 1, unitPrice: 100 }] },
      });
      const order = await expectChanged(response, path, events);
      expect(order.lines[0]).toMatchObject({ lineId: 1, quantity: 4, unitPrice: 100, extendedPrice: 400 });
      expect(order.lines[1]).toMatchObject({ lineId: 2, quantity: 5, unitPrice: 10.1, discountPercent: 10, extendedPrice: 45.45, note: 'rush' });
      expect(order.totals).toEqual(plainTotals({ orderTotal: 445.45, discountTotal: 5.05 }));
      expect(order.orderQty).toBe(9);
    });

    it('DELETE removes the lines of ?ids= (comma-separated or repeated)', async () => {
      const { path, etag } = await newOrder();
      const added = await send('POST', `${path}/lines`, { ifMatch: etag, body: { lines: [{ inventoryId: 'ITEM3', quantity: 1, unitPrice: 7 }] } });
      let events = (await updatedEvents()).length;
      const first = await send('DELETE', `${path}/lines?ids=1,3`, { ifMatch: added.headers.get('etag')! });
      let order = await expectChanged(first, path, events);
      expect(order.lines.map((l) => l.lineId)).toEqual([2]);
      expect(order.totals).toEqual(plainTotals({ orderTotal: 22.73, discountTotal: 2.52 }));
      expect(order.orderQty).toBe(2.5);

      events = (await updatedEvents()).length;
      const second = await send('DELETE', `${path}/lines?ids=2`, { ifMatch: first.headers.get('etag')! });
      order = await expectChanged(second, path, events);
      expect(order.lines).toEqual([]);
      expect(order.totals).toEqual(plainTotals({ orderTotal: 0, discountTotal: 0 }));
    });

    it('accepts ids repeated as generated clients send an array', async () => {
      const { path, etag } = await newOrder();
      const response = await send('DELETE', `${path}/lines?ids=1&ids=2`, { ifMatch: etag });
      expect(response.status).toBe(202);
      expect((await read(path)).order.lines).toEqual([]);
    });
  });

  describe('all or nothing: one 400 lists every problem and nothing changes', () => {
    it('POST: missing fields, bad values and the line direction, each at its place', async () => {
      const { path, etag } = await newOrder();
      const before = await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!);
      const events = (await updatedEvents()).length;
      const response = await send('POST', `${path}/lines`, {
        ifMatch: etag,
        body: { lines: [{ inventoryId: 'OK', quantity: 1, unitPrice: 1 }, { quantity: 0, unitPrice: 1 }, { inventoryId: 'X', quantity: 1, unitPrice: 1, operation: 'Issue' }] },
      });
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(Object.keys(problem.errors!).sort()).toEqual(['lines[1].inventoryId', 'lines[1].quantity', 'lines[2].operation']);
      expect(await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!)).toEqual(before);
      expect(await updatedEvents()).toHaveLength(events);
    });

    it('POST: an empty or missing lines list is a 400', async () => {
      const { path, etag } = await newOrder();
      for (const body of [{ lines: [] }, {}]) {
        const response = await send('POST', `${path}/lines`, { ifMatch: etag, body });
        expect(response.status).toBe(400);
        expect(Object.keys((await problemOf(response)).errors!)).toEqual(['lines']);
      }
    });

    it('PATCH: unknown and repeated line ids, bad values, inventoryId (not in the document) and insert/update/delete as operation', async () => {
      const { path, etag } = await newOrder();
      const before = await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!);
      const response = await send('PATCH', `${path}/lines`, {
        ifMatch: etag,
        body: {
          lines: [
            { lineId: 1, quantity: 2 },
            { lineId: 99, quantity: 1 },
            { lineId: 1, note: 'again' },
            { lineId: 2, discountPercent: 101 },
            { lineId: 2, inventoryId: 'OTHER' },
            { quantity: 1 },
            { lineId: 1, operation: 'update' },
          ],
        },
      });
      expect(response.status).toBe(400);
      expect(Object.keys((await problemOf(response)).errors!).sort()).toEqual([
        'lines[1].lineId',
        'lines[2].lineId',
        'lines[3].discountPercent',
        'lines[4].inventoryId',
        'lines[4].lineId',
        'lines[5].lineId',
        'lines[6].lineId',
        'lines[6].operation',
      ]);
      expect(await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!)).toEqual(before);
    });

    it('DELETE: unknown, repeated and malformed ids, all listed', async () => {
      const { path, etag } = await newOrder();
      const before = await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!);
      const response = await send('DELETE', `${path}/lines?ids=1,99,1,abc,0`, { ifMatch: etag });
      expect(response.status).toBe(400);
      expect(Object.keys((await problemOf(response)).errors!).sort()).toEqual(['ids[1]', 'ids[2]', 'ids[3]', 'ids[4]']);
      expect(await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!)).toEqual(before);
    });

    it('DELETE: at most 1000 ids; 1001 is a 400 on ids; none, or an unknown parameter, is a 400', async () => {
      const { path, etag } = await newOrder();
      const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
      const tooMany = await send('DELETE', `${path}/lines?ids=${ids(1001)}`, { ifMatch: etag });
      expect(tooMany.status).toBe(400);
      const problem = await problemOf(tooMany);
      expect(Object.keys(problem.errors!)).toEqual(['ids']);
      expect(problem.errors!.ids[0]).toMatch(/at most 1000/);
      expect((await send('DELETE', `${path}/lines`, { ifMatch: etag })).status).toBe(400);
      expect((await send('DELETE', `${path}/lines?ids=1&id=2`, { ifMatch: etag })).status).toBe(400);

      // 1000 ids is within the limit: refused only because lines 3 to 1000 do not exist
      const atLimit = await send('DELETE', `${path}/lines?ids=${ids(1000)}`, { ifMatch: etag });
      expect(atLimit.status).toBe(400);
      const errors = (await problemOf(atLimit)).errors!;
      expect(Object.keys(errors)).toHaveLength(998);
      expect(errors['ids[2]']).toBeDefined();
      expect((await read(path)).order.lines).toHaveLength(2);
    });
  });

  describe('preconditions and tenancy', () => {
    const operations: Array<[string, string, unknown]> = [
      ['POST', '/lines', { lines: [{ inventoryId: 'A', quantity: 1, unitPrice: 1 }] }],
      ['PATCH', '/lines', { lines: [{ lineId: 1, quantity: 2 }] }],
      ['DELETE', '/lines?ids=1', undefined],
    ];

    it.each(operations)('%s: 428 without If-Match, 412 with a stale one (before the body is looked at); nothing changes', async (method, suffix, body) => {
      const { path, etag } = await newOrder();
      const before = await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!);
      const events = (await updatedEvents()).length;
      expect((await send(method, `${path}${suffix}`, { body })).status).toBe(428);
      expect((await send(method, `${path}${suffix}`, { body, ifMatch: '"1"' })).status).toBe(412);
      expect((await send(method, `${path}${suffix}`, { body: body === undefined ? undefined : { lines: [] }, ifMatch: '"1"' })).status).toBe(412);
      expect((await send(method, `${path}${suffix}`, { body, ifMatch: `W/${etag}` })).status).toBe(412);
      expect(await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!)).toEqual(before);
      expect(await updatedEvents()).toHaveLength(events);
      expect((await send(method, `${path}${suffix}`, { body, ifMatch: '*' })).status).toBe(202);
    });

    it.each(operations)('%s: 404 for another company\'s order and for an unknown one, alike', async (method, suffix, body) => {
      const { path, etag } = await newOrder();
      const before = await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!);
      const other = await send(method, `${path}${suffix}`, { body, ifMatch: etag, company: B });
      const unknown = await send(method, `/api/v3/SalesOrders/SO/999999${suffix}`, { body, ifMatch: etag });
      expect(other.status).toBe(404);
      expect(unknown.status).toBe(404);
      const sameness = (p: Problem & { type?: string; title?: string }) => ({ type: p.type, title: p.title, status: p.status });
      expect(sameness(await problemOf(other))).toEqual(sameness(await problemOf(unknown)));
      expect(await orderRows(t.sql, A, 'SO', path.split('/').at(-1)!)).toEqual(before);
    });
  });
});
