import { etagOfVersion, insertCustomerSnapshots, orderRows, outboxRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
let t: SalesOrdersTestApp;
let headers: Record<string, string>;

interface Order {
  orderId: string;
  description: string | null;
  version: string;
  lines: Array<{ lineId: number; inventory: { id: string }; quantity: number; note: string | null }>;
}

async function createOrder(lines: number): Promise<{ location: string; etag: string; order: Order }> {
  const response = await t.http.request('/api/v3/SalesOrders', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      type: 'SO',
      customer: { id: '10001' },
      orderLines: Array.from({ length: lines }, (_, i) => ({ inventoryId: `ITEM-${i + 1}`, quantity: 1, unitPrice: '9.99' })),
    }),
  });
  expect(response.status).toBe(201);
  return { location: response.headers.get('location')!, etag: response.headers.get('etag')!, order: (await response.json()) as Order };
}

function patch(location: string, etag: string, body: unknown): Promise<Response> {
  return t.http.request(location, { method: 'PATCH', headers: { ...headers, 'if-match': etag }, body: JSON.stringify(body) });
}

describe('sales-orders-v3 concurrency and atomicity', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('concurrency');
    headers = await t.headers(A);
    await insertCustomerSnapshots(t, A, [{ id: '10001' }]);
    await putInventoryItems(t, A, [...Array.from({ length: 250 }, (_, i) => `ITEM-${i + 1}`), ...Array.from({ length: 50 }, (_, i) => [`NEW-${i}`, `W-${i}`]).flat()]);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('lets exactly one of 50 concurrent PATCHes with the same ETag win; the other 49 get 412 and the order holds only the winner’s change', async () => {
    const { location, etag, order } = await createOrder(3);
    const eventsBefore = (await outboxRows(t.sql)).length;
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        patch(location, etag, {
          description: `writer ${i}`,
          lines: [
            { operation: 'update', lineId: 1, quantity: i + 1, note: `writer ${i}` },
            { operation: 'insert', inventoryId: `NEW-${i}`, quantity: 1, unitPrice: 1 },
          ],
        }).then(async (response) => ({ i, status: response.status, etag: response.headers.get('etag'), body: await response.text() })),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 412)).toHaveLength(49);

    const winner = responses.find((r) => r.status === 202)!;
    const final = (await (await t.http.request(`${location}?expand=lines`, { headers })).json()) as Order;
    expect(final.description).toBe(`writer ${winner.i}`);
    expect(etagOfVersion(final.version)).toBe(winner.etag);
    expect(final.version).not.toBe(order.version);
    expect(final.lines.map((l) => l.inventory.id)).toEqual(['ITEM-1', 'ITEM-2', 'ITEM-3', `NEW-${winner.i}`]);
    expect(final.lines[0]).toMatchObject({ quantity: winner.i + 1, note: `writer ${winner.i}` });
    // One change, one event.
    expect((await outboxRows(t.sql)).length - eventsBefore).toBe(1);
  });

  it('gives every one of 20 sequential PATCHes a new, never repeated ETag', async () => {
    const { location, etag } = await createOrder(1);
    const seen = new Set([etag]);
    let current = etag;
    for (let i = 0; i < 20; i++) {
      const response = await patch(location, current, { note: i % 2 === 0 ? 'same' : 'other' });
      expect(response.status).toBe(202);
      current = response.headers.get('etag')!;
      expect(seen.has(current)).toBe(false);
      seen.add(current);
    }
  });

  it('rejects a PATCH of 200 valid line changes and one invalid one with a 400 naming it, leaving the order byte-for-byte unchanged', async () => {
    const { location, etag } = await createOrder(250);
    const orderId = location.split('/').pop()!;
    const rowsBefore = await orderRows(t.sql, A, 'SO', orderId);
    const bodyBefore = await (await t.http.request(`${location}?expand=all`, { headers })).text();
    const eventsBefore = await outboxRows(t.sql);
    const sequenceBefore = (await t.sql.query(`SELECT last_value FROM sales_order_version_seq`)).rows[0];

    const valid = [
      ...Array.from({ length: 150 }, (_, i) => ({ operation: 'update', lineId: i + 1, quantity: 2, note: 'changed' })),
      ...Array.from({ length: 30 }, (_, i) => ({ operation: 'delete', lineId: 200 + i })),
      ...Array.from({ length: 20 }, (_, i) => ({ operation: 'insert', inventoryId: `NEW-${i}`, quantity: 1, unitPrice: 5 })),
    ];
    for (const invalid of [
      { operation: 'update', lineId: 9999, quantity: 1 }, // unknown line: found only by the database
      { operation: 'update', lineId: 240, quantity: 0 }, // bad quantity: found by the body rules
    ]) {
      const lines = [...valid.slice(0, 100), invalid, ...valid.slice(100)];
      const response = await patch(location, etag, { description: 'would change', lines });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as { errors: Record<string, string[]>; details: Array<{ parameters: { property: string } }> };
      const field = invalid.lineId === 9999 ? 'lines[100].lineId' : 'lines[100].quantity';
      expect(Object.keys(problem.errors)).toEqual([field]);
      expect(problem.details.map((d) => d.parameters.property)).toEqual([field]);

      expect(await orderRows(t.sql, A, 'SO', orderId)).toEqual(rowsBefore);
      expect(await (await t.http.request(`${location}?expand=all`, { headers })).text()).toBe(bodyBefore);
      expect(await outboxRows(t.sql)).toEqual(eventsBefore);
    }
    // The database-found problem made the header UPDATE run and roll back: only a sequence value was used.
    expect((await t.sql.query(`SELECT last_value FROM sales_order_version_seq`)).rows[0]).not.toEqual(sequenceBefore);

    // The same 200 changes alone apply, all at once.
    const applied = await patch(location, etag, { description: 'changed', lines: valid });
    expect(applied.status).toBe(202);
    const after = (await applied.json()) as Order;
    expect(after.lines).toHaveLength(250 - 30 + 20);
    expect(after.lines.filter((l) => l.note === 'changed')).toHaveLength(150);
  });

  it('keeps header and lines consistent when PATCHes with If-Match: * race (each applies whole, none half)', async () => {
    const { location } = await createOrder(1);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        patch(location, '*', { description: `w${i}`, lines: [{ operation: 'insert', inventoryId: `W-${i}`, quantity: 1, unitPrice: 1 }] }),
      ),
    );
    expect(responses.every((r) => r.status === 202)).toBe(true);
    const final = (await (await t.http.request(`${location}?expand=lines`, { headers })).json()) as Order & { totals: { orderTotal: number }; orderQty: number };
    expect(final.lines).toHaveLength(21);
    expect(new Set(final.lines.map((l) => l.lineId)).size).toBe(21);
    expect(final.orderQty).toBe(21);
    expect(final.totals.orderTotal).toBe(29.99);
  });
});
