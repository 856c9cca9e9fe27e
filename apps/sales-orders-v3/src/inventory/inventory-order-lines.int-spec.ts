import { putInventoryItems } from '../testing/sales-orders-test-app';
import { A, B, useInventoryTestApp } from '../testing/inventory-test-kit';

describe('order lines must reference an existing item', () => {
  const { app, send, problemOf } = useInventoryTestApp('inventory-order-lines');
  const order = (lines: unknown[]) => ({ type: 'SO', customer: { id: '10001' }, orderLines: lines });

  beforeAll(async () => {
    await putInventoryItems(app(), A, ['KNOWN', 'OTHER']);
  });

  it('POST: every unknown item is listed with the other problems, and nothing is created', async () => {
    const problem = await problemOf(
      await send('POST', '/api/v3/SalesOrders', order([
        { inventoryId: 'KNOWN', quantity: 1, unitPrice: 1 },
        { inventoryId: 'MISSING', quantity: 1, unitPrice: 1 },
        { inventoryId: 'BOLT', quantity: 0, unitPrice: 1 },
      ])),
    );
    expect(problem.errors).toEqual({
      'orderLines[1].inventoryId': [expect.stringContaining('inventory item MISSING does not exist')],
      'orderLines[2].inventoryId': [expect.stringContaining('inventory item BOLT does not exist')],
      'orderLines[2].quantity': [expect.any(String)],
    });
    expect(problem.details.find((d) => d.parameters.property === 'orderLines[1].inventoryId')?.code).toBe('0007-UnknownReference');
    expect((await app().sql.query(`SELECT 1 FROM sales_orders WHERE company_id = $1`, [A])).rowCount).toBe(0);
  });

  it("an item of another company is unknown", async () => {
    await putInventoryItems(app(), B, ['ONLY-B']);
    const problem = await problemOf(await send('POST', '/api/v3/SalesOrders', order([{ inventoryId: 'ONLY-B', quantity: 1, unitPrice: 1 }])));
    expect(Object.keys(problem.errors)).toEqual(['orderLines[0].inventoryId']);
    expect((await send('POST', '/api/v3/SalesOrders', order([{ inventoryId: 'ONLY-B', quantity: 1, unitPrice: 1 }]), B)).status).toBe(201);
  });

  it('PATCH (insert and update), POST .../lines: unknown items are 400 at their place, nothing applied; known ones are accepted', async () => {
    const created = await send('POST', '/api/v3/SalesOrders', order([{ inventoryId: 'KNOWN', quantity: 1, unitPrice: 1 }]));
    expect(created.status).toBe(201);
    const path = created.headers.get('location')!;
    const etag = created.headers.get('etag')!;

    const patch = await problemOf(
      await send('PATCH', path, { description: 'x', lines: [{ operation: 'update', lineId: 1, inventoryId: 'NOPE' }, { operation: 'insert', inventoryId: 'GONE', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': etag }),
    );
    expect(Object.keys(patch.errors)).toEqual(['lines[0].inventoryId', 'lines[1].inventoryId']);
    const add = await problemOf(await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'OTHER', quantity: 1, unitPrice: 1 }, { inventoryId: 'NOPE', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': etag }));
    expect(Object.keys(add.errors)).toEqual(['lines[1].inventoryId']);
    // A stale If-Match is still answered first (412 before the body's problems).
    expect((await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'NOPE', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': '"1"' })).status).toBe(412);

    const unchanged = await send('GET', `${path}?expand=lines`);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect(((await unchanged.json()) as { lines: unknown[] }).lines).toHaveLength(1);

    const ok = await send('PATCH', path, { lines: [{ operation: 'update', lineId: 1, inventoryId: 'OTHER' }, { operation: 'insert', inventoryId: 'KNOWN', quantity: 1, unitPrice: 1 }] }, A, { 'if-match': etag });
    expect(ok.status).toBe(202);
    const added = await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'OTHER', quantity: 2, unitPrice: 1 }] }, A, { 'if-match': ok.headers.get('etag')! });
    expect(added.status).toBe(202);
  });
});
