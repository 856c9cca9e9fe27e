import type { ProblemBody } from '@erp/errors';
import { insertCustomerSnapshots, orderRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';
import { nswagBody, publishedProperties } from '../testing/published-request';

/**
 * Clients generated from the published v3 document (NSwag's defaults) send every property the
 * document declares, null when the caller did not set it. Null is "not set" (create) or
 * "unchanged" (PATCH); a property this service does not keep, sent with a value, is a 400 naming
 * it; a property the document does not declare is still a 400.
 */

const A = '1000001';
let t: SalesOrdersTestApp;

type Problem = ProblemBody;

async function send(method: string, path: string, body: unknown, ifMatch?: string): Promise<Response> {
  const headers = await t.headers(A, ifMatch ? { 'if-match': ifMatch } : {});
  return t.http.request(path, { method, headers, body: JSON.stringify(body) });
}

async function read(path: string): Promise<{ order: Record<string, unknown>; etag: string }> {
  const response = await send('GET', `${path}?expand=all`, undefined);
  expect(response.status).toBe(200);
  return { order: (await response.json()) as Record<string, unknown>, etag: response.headers.get('etag')! };
}

async function createOrder(): Promise<{ path: string; etag: string }> {
  const response = await send('POST', '/api/v3/SalesOrders', nswagBody('NewSalesOrderCommand', {
    type: 'SO',
    customer: { id: '10001', order: 'PO-1' },
    description: 'Generated client',
    shipping: { address: { city: 'Bergen', countryId: 'NO' } },
    orderLines: [{ inventoryId: 'ITEM1', quantity: 2, unitPrice: '10.50', description: 'Crate', unitOfMeasure: 'PCS' }],
  }));
  expect(response.status).toBe(201);
  return { path: response.headers.get('location')!, etag: response.headers.get('etag')! };
}

async function expectRefused(response: Response, field: string, message: RegExp): Promise<void> {
  expect(response.status).toBe(400);
  const problem = (await response.json()) as Problem;
  expect(problem.errors?.[field]).toEqual([expect.stringMatching(message)]);
}

const NOT_SUPPORTED = /is not supported by this service; send null or leave it out/;

describe('sales-orders-v3 with clients generated from the published document', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('published');
    await insertCustomerSnapshots(t, A, [{ id: '10001', name: 'Acme AS', currencyId: 'NOK' }]);
    await putInventoryItems(t, A, ['ITEM1', 'ITEM2', 'ITEM9', 'X']);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('creates an order from a body with every document property, null where not set (201), and reads it back', async () => {
    const body = nswagBody('NewSalesOrderCommand', {
      type: 'SO',
      customer: { id: '10001', order: 'PO-4711' },
      description: 'Spring delivery',
      billing: { contact: { name: 'Kari', email: 'kari@acme.example' } },
      paymentSettings: {},
      orderLines: [
        { inventoryId: 'ITEM1', quantity: 4, unitPrice: 101.25 },
        { inventoryId: 'ITEM2', quantity: '2.5', unitPrice: '10.10', discountPercent: 10, note: 'Blue' },
      ],
    });
    expect(Object.keys(body).sort()).toEqual(publishedProperties('NewSalesOrderCommand').sort());
    expect(body).toMatchObject({ orderId: null, branchId: null, financialInformation: null, shipping: null, date: null, status: null });

    const response = await send('POST', '/api/v3/SalesOrders', body);
    expect(response.status).toBe(201);
    const { order } = await read(response.headers.get('location')!);
    expect(order).toMatchObject({
      type: 'SO',
      description: 'Spring delivery',
      note: null,
      currencyId: 'NOK',
      status: { description: 'Open' },
      customer: { id: '10001', order: 'PO-4711', refNo: null },
      billing: { contact: { name: 'Kari', attention: null, email: 'kari@acme.example', phone1: null } },
      totals: { orderTotal: 427.73 },
      lines: [
        { lineId: 1, inventory: { id: 'ITEM1' }, quantity: 4, unitPrice: 101.25, discountPercent: 0, note: null },
        { lineId: 2, inventory: { id: 'ITEM2' }, quantity: 2.5, unitPrice: 10.1, discountPercent: 10, note: 'Blue' },
      ],
    });
    // Parts never set are left out (the document's nested objects are not nullable); the null
    // financialInformation of the body stored nothing, so the order's (its payment terms) is empty.
    expect(order['billing']).not.toHaveProperty('address');
    expect([order['shipping'], order['paymentSettings'], order['financialInformation']]).toEqual([{}, {}, {}]);
    for (const property of ['branchId', 'overridesDefault', 'operation']) {
      expect(JSON.stringify(order)).not.toContain(`"${property}"`);
    }
  });

  it('applies only the one real change of a PATCH whose other document properties are all null (202)', async () => {
    const { path, etag } = await createOrder();
    const before = (await read(path)).order;
    const response = await send('PATCH', path, nswagBody('PatchSalesOrderCommand', { note: 'Ring twice' }), etag);
    expect(response.status).toBe(202);
    const after = (await read(path)).order;
    expect(after).toEqual({ ...before, note: 'Ring twice', lastModified: after.lastModified, version: after.version });
    expect(after.version).not.toBe(before.version);
  });

  it('clears the other fields of an address sent with nulls, as documented (null clears inside billing and shipping)', async () => {
    const { path, etag } = await createOrder();
    const body = nswagBody('PatchSalesOrderCommand', { shipping: { address: { postalCode: '5003' } }, customer: {} });
    const response = await send('PATCH', path, body, etag);
    expect(response.status).toBe(202);
    const { order } = await read(path);
    expect(order.shipping).toEqual({ address: { line1: null, line2: null, line3: null, postalCode: '5003', city: null } });
    expect(order.customer).toMatchObject({ id: '10001', order: 'PO-1' });
    expect(order.description).toBe('Generated client');
  });

  it('updates and adds lines with the line operations\' document bodies, nulls leaving fields unchanged (202)', async () => {
    const { path, etag } = await createOrder();
    const patch = await send('PATCH', `${path}/lines`, nswagBody('PatchSalesOrderLinesCommand', { lines: [{ lineId: 1, note: 'Fragile' }] }), etag);
    // quantity, unitPrice, discountPercent and sortOrder were null: unchanged; the line's clearable
    // texts (description, unitOfMeasure, warehouseId, requestDate) were null: cleared, as documented
    expect(patch.status).toBe(202);
    const add = await send('POST', `${path}/lines`, nswagBody('AddSalesOrderLinesCommand', { lines: [{ inventoryId: 'ITEM9', quantity: 1, unitPrice: 5 }] }), patch.headers.get('etag')!);
    expect(add.status).toBe(202);
    const { order } = await read(path);
    expect(order.lines).toMatchObject([
      { lineId: 1, sortOrder: 1, inventory: { id: 'ITEM1' }, quantity: 2, unitPrice: 10.5, discountPercent: 0, description: null, unitOfMeasure: null, note: 'Fragile' },
      { lineId: 2, inventory: { id: 'ITEM9' }, quantity: 1, unitPrice: 5, discountPercent: 0 },
    ]);
  });

  it('refuses a document property this service does not keep, sent with a value, naming it; nothing changes', async () => {
    const { path, etag } = await createOrder();
    const rows = await orderRows(t.sql, A, 'SO', path.split('/').pop()!);
    const cases: Array<[string, string, unknown, string]> = [
      ['PATCH', path, nswagBody('PatchSalesOrderCommand', { note: 'x', branchId: 'B1' }), 'branchId'],
      ['PATCH', path, nswagBody('PatchSalesOrderCommand', { shipping: { shipViaId: 'POST' } }), 'shipping.shipViaId'],
      ['PATCH', path, nswagBody('PatchSalesOrderCommand', { billing: { address: { overridesDefault: true } } }), 'billing.address.overridesDefault'],
      ['PATCH', path, nswagBody('PatchSalesOrderCommand', { projectId: 'P1' }), 'projectId'],
      ['PATCH', `${path}/lines`, nswagBody('PatchSalesOrderLinesCommand', { lines: [{ lineId: 1, unitCost: 3 }] }), 'lines[0].unitCost'],
      ['POST', `${path}/lines`, nswagBody('AddSalesOrderLinesCommand', { lines: [{ inventoryId: 'X', quantity: 1, unitPrice: 1, shipDate: '2026-05-01' }] }), 'lines[0].shipDate'],
    ];
    for (const [method, target, body, field] of cases) {
      await expectRefused(await send(method, target, body, etag), field, NOT_SUPPORTED);
    }
    expect(await orderRows(t.sql, A, 'SO', path.split('/').pop()!)).toEqual(rows);

    const count = async (): Promise<number> => Number((await t.sql.query('SELECT count(*) FROM sales_orders')).rows[0].count);
    const orders = await count();
    const create = await send('POST', '/api/v3/SalesOrders', nswagBody('NewSalesOrderCommand', {
      type: 'SO',
      customer: { id: '10001', gln: '7080000000001' },
      orderId: '000999',
      orderLines: [{ inventoryId: 'ITEM1', quantity: 1, unitPrice: 1, operation: 'Issue' }],
    }));
    expect(create.status).toBe(400);
    const problem = (await create.json()) as Problem;
    expect(Object.keys(problem.errors!).sort()).toEqual(['customer.gln', 'orderId', 'orderLines[0].operation']);
    expect(problem.errors!.orderId).toEqual([expect.stringMatching(NOT_SUPPORTED)]);
    expect(problem.details!.find((d) => d.parameters.property === 'orderId')!.code).toBe('0002-InvalidValue');
    expect(await count()).toBe(orders);
  });

  it('still refuses a property the document does not declare, null or not', async () => {
    const { path, etag } = await createOrder();
    for (const extra of [{ colour: null }, { colour: 'red' }]) {
      const response = await send('PATCH', path, { ...nswagBody('PatchSalesOrderCommand', { note: 'x' }), ...extra }, etag);
      expect(response.status).toBe(400);
      const problem = (await response.json()) as Problem;
      expect(problem.details).toEqual([expect.objectContaining({ code: '0003-UnknownProperty', parameters: { property: 'colour' } })]);
    }
    const create = await send('POST', '/api/v3/SalesOrders', nswagBody('NewSalesOrderCommand', {
      type: 'SO',
      customer: { id: '10001' },
      billing: { address: { city: 'Oslo' } },
    }));
    expect(create.status).toBe(201);
    const overrides = await send('POST', '/api/v3/SalesOrders', {
      ...nswagBody('NewSalesOrderCommand', { type: 'SO', customer: { id: '10001' } }),
      billing: { address: { overridesDefault: null } },
    });
    await expectRefused(overrides, 'billing.address.overridesDefault', /should not exist/);
  });

  it('reads a PATCH of nulls only as a PATCH that changes nothing (400)', async () => {
    const { path, etag } = await createOrder();
    const response = await send('PATCH', path, nswagBody('PatchSalesOrderCommand', {}), etag);
    await expectRefused(response, 'body', /must change at least one/);
  });
});
