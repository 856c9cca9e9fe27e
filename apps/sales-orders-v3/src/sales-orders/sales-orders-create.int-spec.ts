import { etagOfVersion } from '../testing/sales-orders-test-app';
import { plainTotals } from '../testing/order-totals-model';
import { A, NEW_ORDER, THOUSANDS_OF_ITEMS, WRITE_ITEMS, type Problem, useSalesOrdersWriteTestApp } from '../testing/sales-orders-write-kit';

// The first test asserts the numbers the company's first orders get (SO 000001, QT 000001, SO 000002):
// it must stay the first request that creates orders in this file's database.
describe('sales-orders-v3 create', () => {
  const { app, send, create, get } = useSalesOrdersWriteTestApp('write-create', { items: [...WRITE_ITEMS, ...THOUSANDS_OF_ITEMS] });

  describe('POST', () => {
    it('creates an order: 201 with Location, ETag and the full order; ids numbered per company and type', async () => {
      const { response, order } = await create(NEW_ORDER);
      expect(order.orderId).toBe('000001');
      expect(response.headers.get('location')).toBe('/api/v3/SalesOrders/SO/000001');
      expect(response.headers.get('etag')).toBe(etagOfVersion(order.version));
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(order).toMatchObject({
        type: 'SO',
        description: 'Spring delivery',
        note: 'Leave at the back door',
        currencyId: 'NOK',
        status: { description: 'Open', hold: false, cancelled: false },
        customer: { id: '10001', name: 'Acme AS', order: 'PO-4711', refNo: 'REF-1' },
        attachments: [],
      });
      // Parts never set are left out, not null: the v3 document's nested objects are not nullable.
      expect([order.billing, order.shipping, order.paymentSettings, order.financialInformation]).toEqual([{}, {}, {}, {}]);
      expect(order.lines).toHaveLength(2);
      expect(order.lines![0]).toEqual({
        lineId: 1,
        sortOrder: 1,
        inventory: { id: 'STOCKITEM1', description: null },
        description: null,
        quantity: 4,
        unitPrice: 101.25,
        discountPercent: 0,
        extendedPrice: 405,
        unitOfMeasure: null,
        warehouseId: null,
        requestDate: null,
        note: null,
        taxCategoryId: null,
        commissionable: true,
        // unitPrice sent: the price is manual; no discount sent: the price rules give it (none here: 0)
        hasManualPrice: true,
        hasManualDiscount: false,
      });
      // 2.5 x 10.10 = 25.25, less 10 % = 22.725 -> 22.73 (half away from zero)
      expect(order.lines![1]).toMatchObject({ lineId: 2, quantity: 2.5, unitPrice: 10.1, discountPercent: 10, extendedPrice: 22.73 });
      expect(order.totals).toEqual(plainTotals({ discountTotal: 2.52, orderTotal: 427.73 }));
      expect(order.orderQty).toBe(6.5);
      expect(order.date).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
      expect(order.requestOn).toBe(order.date);
      expect(order.lastModified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

      const quote = await create({ type: 'QT', customer: { id: '10001' } });
      expect(quote.order.orderId).toBe('000001');
      const second = await create({ type: 'SO', customer: { id: '10002' }, status: 'Hold' });
      expect(second.order).toMatchObject({ orderId: '000002', currencyId: 'SEK', status: { description: 'Hold', hold: true } });
    });

    it('takes dates with an offset as that instant and without one as UTC', async () => {
      const { order } = await create({
        type: 'SO',
        customer: { id: '10001' },
        date: '2026-04-21T01:30:00+02:00',
        requestOn: '2026-05-01',
        cancelBy: '2026-06-01T12:00:00',
        orderLines: [{ inventoryId: 'X', quantity: 1, unitPrice: 1, requestDate: '2026-05-02T08:00:00Z' }],
      });
      expect(order).toMatchObject({
        date: '2026-04-20T23:30:00.000Z',
        requestOn: '2026-05-01T00:00:00.000Z',
        cancelBy: '2026-06-01T12:00:00.000Z',
      });
      expect(order.lines![0].requestDate).toBe('2026-05-02T08:00:00.000Z');
    });

    it('stores billing, shipping and payment settings, with every address and contact field present, shown as the v3 document names them', async () => {
      const { order } = await create({
        type: 'SO',
        customer: { id: '10001' },
        billing: { address: { line1: 'Storgata 1', city: 'Oslo', countryId: 'NO' }, contact: { name: 'Kari', email: 'kari@acme.example' } },
        shipping: { address: { line1: 'Kaia 5', postalCode: '5003', city: 'Bergen', countryId: 'NO' } },
        paymentSettings: { terms: { id: '30D', description: '30 days' }, method: { id: 'INVOICE' } },
      });
      // countryId/stateId are AddressDto's country/county; a part never set (shipping's contact, county) is left out.
      expect(order.billing).toEqual({
        address: { line1: 'Storgata 1', line2: null, line3: null, postalCode: null, city: 'Oslo', country: { id: 'NO', name: null } },
        contact: { name: 'Kari', attention: null, email: 'kari@acme.example', phone1: null },
      });
      expect(order.shipping).toEqual({ address: { line1: 'Kaia 5', line2: null, line3: null, postalCode: '5003', city: 'Bergen', country: { id: 'NO', name: null } } });
      // The method is SalesOrderPaymentDto's paymentMethod; the terms are financialInformation.terms.
      expect(order.paymentSettings).toEqual({ paymentMethod: { id: 'INVOICE', description: null } });
      expect(order.financialInformation).toEqual({ terms: { id: '30D', description: '30 days' } });
    });

    it('computes money with exact decimals: 0.1 + 0.2 is 0.3 and large values keep every digit', async () => {
      const { order } = await create({
        type: 'SO',
        customer: { id: '10001' },
        orderLines: [
          { inventoryId: 'A', quantity: 1, unitPrice: 0.1 },
          { inventoryId: 'B', quantity: 1, unitPrice: 0.2 },
          { inventoryId: 'C', quantity: '999999999999.999999', unitPrice: '999999999999.999999' },
          { inventoryId: 'D', quantity: 3, unitPrice: '0.333333', discountPercent: '33.3333' },
        ],
      });
      const [a, b, c, d] = order.lines!;
      expect(a.extendedPrice + b.extendedPrice).toBeCloseTo(0.3, 10);
      const raw = await get(`/api/v3/SalesOrders/SO/${order.orderId}?expand=lines`);
      // Exact on the wire: the decimal text PostgreSQL computed, never a float.
      // 999999999999.999999 squared = 999999999999999998000000.000000000001 -> rounded to cents.
      expect(raw.text).toMatch(/"extendedPrice"\s*:\s*999999999999999998000000[,}\s]/);
      expect(raw.text).toMatch(/"quantity"\s*:\s*999999999999\.999999[,}\s]/);
      expect(raw.text).toMatch(/"orderTotal"\s*:\s*999999999999999998000000\.97[,}\s]/);
      expect(raw.text).toMatch(/"discountTotal"\s*:\s*0\.33[,}\s]/);
      expect(raw.text).not.toContain('lineTotal'); // not in the v3 document's SalesOrderTotalsDto
      // 3 x 0.333333 = 0.999999; less 33.3333 % = 0.66666733... -> 0.67
      expect(d.extendedPrice).toBe(0.67);
      expect(c.quantity).toBeGreaterThan(0);
      const [{ line_total, order_total, discount_total }] = (
        await app().sql.query(
          `SELECT line_total::text, order_total::text, discount_total::text FROM sales_orders WHERE company_id = $1 AND order_type = 'SO' AND order_id = $2`,
          [A, order.orderId],
        )
      ).rows;
      expect(line_total).toBe('999999999999999998000001.30');
      expect(order_total).toBe('999999999999999998000000.97');
      expect(discount_total).toBe('0.33');
    });

    it('refuses a JSON number that cannot be exact and accepts the same value as a string', async () => {
      const response = await send('POST', '/api/v3/SalesOrders', {
        type: 'SO',
        customer: { id: '10001' },
        // What a client serialising a double sends for 123456789012.123456 (it cannot hold that value).
        orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: 123456789012.12346 }],
      });
      expect(response.status).toBe(400);
      const problem = (await response.json()) as Problem;
      expect(problem.errors!['orderLines[0].unitPrice'][0]).toMatch(/decimal string/);
      const ok = await create({ type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: '123456789012.123456' }] });
      expect(ok.order.lines![0].unitPrice).toBe(123456789012.12346);
      expect((await get(`/api/v3/SalesOrders/SO/${ok.order.orderId}?expand=lines`)).text).toMatch(/"unitPrice"\s*:\s*123456789012\.123456[,}\s]/);
    });

    it('creates an order with thousands of lines in one request', async () => {
      const orderLines = Array.from({ length: 3000 }, (_, i) => ({ inventoryId: `ITEM-${i + 1}`, quantity: 1 + (i % 5), unitPrice: '19.99' }));
      const { order } = await create({ type: 'SO', customer: { id: '10001' }, orderLines });
      expect(order.lines).toHaveLength(3000);
      expect(order.lines![2999].lineId).toBe(3000);
      expect(order.orderQty).toBe(9000);
      expect(order.totals.orderTotal).toBe(179910);
    });
  });
});
