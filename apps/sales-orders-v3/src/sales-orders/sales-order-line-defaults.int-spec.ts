import { insertCustomerSnapshots, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';
import { jsonOf, requester } from '../testing/requests';

/**
 * What the catalogue item supplies to a new order line (description, unit of measure, warehouse,
 * and `inventory.description`), and the payment method and terms under the v3 document's names
 * (`paymentSettings.paymentMethodId`, `customer.termsId`).
 */
const A = '1000001';
let t: SalesOrdersTestApp;

interface Line {
  lineId: number;
  inventory: { id: string; description: string | null };
  description: string | null;
  unitOfMeasure: string | null;
  warehouseId: string | null;
}
interface Order {
  orderId: string;
  lines: Line[];
  paymentSettings: Record<string, unknown>;
  financialInformation: Record<string, unknown>;
}

const send = requester(() => t, A);
const json = jsonOf;

const view = (l: Line) => [l.inventory.description, l.description, l.unitOfMeasure, l.warehouseId];

describe('sales-orders-v3 line defaults from the catalogue; payment method and terms', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('line-defaults');
    await insertCustomerSnapshots(t, A, [{ id: '10001' }]);
    const item = (description: string, baseUnit: string, warehouses: string[]) => ({
      description,
      baseUnit,
      availability: warehouses.map((warehouseId) => ({ warehouseId })),
      prices: [{ currencyId: 'NOK', unitPrice: 1 }],
    });
    await json(await send('PUT', '/api/v3/Inventory/BOLT', item('Bolt M8x40', 'PCS', ['MAIN', 'SECOND'])), 201);
    await json(await send('PUT', '/api/v3/Inventory/CABLE', item('Cable 3x1.5', 'METERS7', [])), 201);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it("a new line without description, unitOfMeasure or warehouseId takes the item's; what the line sends wins", async () => {
    const order = await json<Order>(
      await send('POST', '/api/v3/SalesOrders', {
        type: 'SO',
        customer: { id: '10001' },
        orderLines: [
          { inventoryId: 'BOLT', quantity: 1, description: null, unitOfMeasure: null, warehouseId: null },
          { inventoryId: 'BOLT', quantity: 1, description: 'Bolts, boxed', unitOfMeasure: 'BOX', warehouseId: 'SECOND' },
          // A base unit longer than a line's unit of measure (6) is not copied; an item without stock has no warehouse
          { inventoryId: 'CABLE', quantity: 2 },
        ],
      }),
      201,
    );
    expect(order.lines.map(view)).toEqual([
      ['Bolt M8x40', 'Bolt M8x40', 'PCS', 'MAIN'],
      ['Bolt M8x40', 'Bolts, boxed', 'BOX', 'SECOND'],
      ['Cable 3x1.5', 'Cable 3x1.5', null, null],
    ]);
  });

  it("a line's item change shows the new item's description; a later catalogue change does not rewrite the order", async () => {
    const created = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'BOLT', quantity: 1 }] });
    const { orderId } = await json<Order>(created, 201);
    const path = `/api/v3/SalesOrders/SO/${orderId}`;
    const changed = await json<Order>(await send('PATCH', path, { lines: [{ operation: 'update', lineId: 1, inventoryId: 'CABLE' }] }, created.headers.get('etag')!), 202);
    expect(changed.lines.map(view)).toEqual([['Cable 3x1.5', 'Bolt M8x40', 'PCS', 'MAIN']]);
    await json(await send('PUT', '/api/v3/Inventory/CABLE', { description: 'Cable, renamed' }), 200);
    expect((await json<Order>(await send('GET', `${path}?expand=lines`), 200)).lines.map(view)).toEqual([['Cable 3x1.5', 'Bolt M8x40', 'PCS', 'MAIN']]);
  });

  it('paymentSettings.paymentMethodId and customer.termsId set the method and terms; "" removes them; one name per request', async () => {
    const created = await send('POST', '/api/v3/SalesOrders?expand=all', {
      type: 'SO',
      customer: { id: '10001', termsId: '30D' },
      paymentSettings: { paymentMethodId: 'CARD', cashAccountId: null, paymentReference: null },
    });
    const order = await json<Order>(created, 201);
    expect([order.paymentSettings, order.financialInformation]).toEqual([{ paymentMethod: { id: 'CARD', description: null } }, { terms: { id: '30D', description: null } }]);
    const path = `/api/v3/SalesOrders/SO/${order.orderId}`;
    const cleared = await json<Order>(await send('PATCH', path, { paymentSettings: { paymentMethodId: '' }, customer: { termsId: null } }, created.headers.get('etag')!), 202);
    expect([cleared.paymentSettings, cleared.financialInformation]).toEqual([{}, { terms: { id: '30D', description: null } }]);
    const both = await send('PATCH', path, { paymentSettings: { paymentMethodId: 'CARD', method: { id: 'CASH' } }, customer: { termsId: '10D' } }, '*');
    expect(both.status).toBe(400);
    expect(Object.keys(((await both.json()) as { errors: object }).errors)).toEqual(['paymentSettings.paymentMethodId']);
    const twice = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001', termsId: '10D' }, paymentSettings: { terms: { id: '20D' } } });
    expect(twice.status).toBe(400);
    expect(Object.keys(((await twice.json()) as { errors: object }).errors)).toEqual(['customer.termsId']);
  });
});
