import { orderRows } from '../testing/sales-orders-test-app';
import { A, NEW_ORDER, type Problem, useSalesOrdersWriteTestApp } from '../testing/sales-orders-write-kit';

describe('sales-orders-v3 writes refused', () => {
  // SO 000001 (NEW_ORDER: lines 1 and 2) is the order the PATCH bodies name; none of them changes it.
  const { app, send } = useSalesOrdersWriteTestApp('write-bad-input', {
    async seed({ create }) {
      await create(NEW_ORDER);
    },
  });

  describe('bad input: 400 problem+json with errors and details, nothing stored', () => {
    async function counts(): Promise<unknown> {
      return (await app().sql.query(`SELECT (SELECT count(*) FROM sales_orders) AS orders, (SELECT count(*) FROM sales_order_lines) AS lines, (SELECT count(*) FROM outbox) AS events`)).rows[0];
    }

    const cases: Array<[string, unknown]> = [
      ['malformed JSON', '{"type": "SO",'],
      ['a JSON array', '[1,2,3]'],
      ['a JSON string', '"SO"'],
      ['a missing type', { customer: { id: '10001' } }],
      ['an unknown type', { type: 'XX', customer: { id: '10001' } }],
      ['a type of the wrong kind', { type: 1, customer: { id: '10001' } }],
      ['a missing customer', { type: 'SO' }],
      ['a customer that is a string', { type: 'SO', customer: '10001' }],
      ['an unknown customer', { type: 'SO', customer: { id: '99999' } }],
      ['an inactive customer', { type: 'SO', customer: { id: '10003' } }],
      ['a status a new order cannot have', { type: 'SO', customer: { id: '10001' }, status: 'Completed' }],
      ['an unknown field', { type: 'SO', customer: { id: '10001' }, favouriteColour: 'blue' }],
      ['an unknown nested field', { type: 'SO', customer: { id: '10001', planet: 'Earth' } }],
      ['an unknown line field', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: 1, colour: 'red' }] }],
      ['a zero quantity', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 0, unitPrice: 1 }] }],
      ['a negative quantity', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: -1, unitPrice: 1 }] }],
      ['a quantity as text', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 'lots', unitPrice: 1 }] }],
      ['too many decimals', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: '1.0000001', unitPrice: 1 }] }],
      ['a discount over 100', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: 1, discountPercent: 101 }] }],
      ['a missing unit price', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1 }] }],
      ['a line that is not an object', { type: 'SO', customer: { id: '10001' }, orderLines: [42] }],
      ['orderLines that is not an array', { type: 'SO', customer: { id: '10001' }, orderLines: { inventoryId: 'A' } }],
      ['a bad date', { type: 'SO', customer: { id: '10001' }, date: '2026-02-30' }],
      ['a bad currency', { type: 'SO', customer: { id: '10001' }, currencyId: 'kroner' }],
      ['an over-long description', { type: 'SO', customer: { id: '10001' }, description: 'x'.repeat(256) }],
      ['a bad email', { type: 'SO', customer: { id: '10001' }, billing: { contact: { email: 'nope' } } }],
      ['a client-chosen order id', { type: 'SO', customer: { id: '10001' }, orderId: '123' }],
    ];

    it.each(cases)('refuses %s on POST', async (_label, body) => {
      const before = await counts();
      const response = await send('POST', '/api/v3/SalesOrders', body);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const problem = (await response.json()) as Problem;
      expect(problem).toMatchObject({ status: 400, instance: '/api/v3/SalesOrders' });
      if (typeof body === 'object') {
        expect(Object.keys(problem.errors ?? {}).length).toBeGreaterThan(0);
        expect(problem.details!.length).toBeGreaterThan(0);
      }
      expect(await counts()).toEqual(before);
    });

    it('lists every problem of a POST body in one answer, with the documented codes', async () => {
      const response = await send('POST', '/api/v3/SalesOrders', {
        type: 'ZZ',
        customer: { id: '99999' },
        description: 42,
        extra: true,
        orderLines: [
          { inventoryId: 'A', quantity: 0, unitPrice: 1 },
          { quantity: 1, unitPrice: 1 },
        ],
      });
      const problem = (await response.json()) as Problem;
      const codes = Object.fromEntries(problem.details!.map((d) => [d.parameters.property, d.code]));
      expect(codes).toEqual({
        type: '0007-UnknownReference',
        'customer.id': '0007-UnknownReference',
        description: '0002-InvalidValue',
        extra: '0003-UnknownProperty',
        'orderLines[0].quantity': '0005-OutOfRange',
        'orderLines[1].inventoryId': '0001-NullNotAllowed',
      });
      expect(Object.keys(problem.errors!).sort()).toEqual(Object.keys(codes).sort());
    });

    it('lists every problem of a PATCH body in one answer and applies nothing', async () => {
      const before = await orderRows(app().sql, A, 'SO', '000001');
      const response = await send(
        'PATCH',
        '/api/v3/SalesOrders/SO/000001',
        {
          status: 'Sleeping',
          type: 'QT',
          description: 'would change',
          lines: [
            { operation: 'update', lineId: 1, quantity: -2 },
            { operation: 'update', lineId: 77 },
            { operation: 'delete', lineId: 2, quantity: 1 },
            { operation: 'update', lineId: 1, note: 'twice' },
            { operation: 'insert', lineId: 5, inventoryId: 'X', quantity: 1, hasManualPrice: true },
            { operation: 'upsert', lineId: 2 },
            { operation: 'delete' },
          ],
        },
        { 'if-match': '*' },
      );
      expect(response.status).toBe(400);
      const problem = (await response.json()) as Problem;
      expect(Object.keys(problem.errors!).sort()).toEqual(
        [
          'status',
          'type',
          'lines[0].quantity',
          'lines[1].lineId',
          'lines[2].quantity',
          'lines[3].lineId',
          'lines[4].lineId',
          'lines[4].unitPrice',
          'lines[5].operation',
          'lines[6].lineId',
        ].sort(),
      );
      expect(problem.errors!['lines[1].lineId']).toEqual(['line 77 does not exist on this order']);
      expect(problem.errors!['lines[3].lineId'][0]).toMatch(/already changed by lines\[0\]/);
      expect(await orderRows(app().sql, A, 'SO', '000001')).toEqual(before);
    });

    it('refuses a lineId beyond the line id column (integer) with a 400 listing it, and applies nothing', async () => {
      const before = await orderRows(app().sql, A, 'SO', '000001');
      for (const lineId of ['2147483648', '1e308', '123456789012345678901234567890', '-2147483649']) {
        const body = `{"lines":[{"operation":"update","lineId":${lineId},"quantity":3}]}`;
        const response = await send('PATCH', '/api/v3/SalesOrders/SO/000001', body, { 'if-match': '*' });
        expect({ lineId, status: response.status }).toEqual({ lineId, status: 400 });
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(Object.keys(((await response.json()) as Problem).errors!)).toEqual(['lines[0].lineId']);
      }
      // The largest integer is a line id that can be looked up: it does not exist.
      const largest = await send('PATCH', '/api/v3/SalesOrders/SO/000001', '{"lines":[{"operation":"update","lineId":2147483647,"quantity":3}]}', { 'if-match': '*' });
      expect(((await largest.json()) as Problem).errors!['lines[0].lineId']).toEqual(['line 2147483647 does not exist on this order']);
      expect(await orderRows(app().sql, A, 'SO', '000001')).toEqual(before);
    });

    it('refuses a JSON body that is not an object with a 400, on POST and PATCH', async () => {
      for (const body of ['null', '[]', '"order"', '12']) {
        for (const response of [await send('POST', '/api/v3/SalesOrders', body), await send('PATCH', '/api/v3/SalesOrders/SO/000001', body, { 'if-match': '*' })]) {
          expect({ body, status: response.status }).toEqual({ body, status: 400 });
        }
      }
    });

    it('refuses a PATCH that changes nothing, and null for fields that cannot be cleared', async () => {
      for (const body of [{}, { lines: [] }, { date: null }, { status: null }, { customer: { id: null } }, { lines: [{ operation: 'update', lineId: 1, quantity: null }] }]) {
        const response = await send('PATCH', '/api/v3/SalesOrders/SO/000001', body, { 'if-match': '*' });
        expect(response.status).toBe(400);
      }
    });

    it('answers 415 to a body that is not JSON and 413 to one over the limit', async () => {
      const xml = await send('POST', '/api/v3/SalesOrders', '<order/>', { 'content-type': 'application/xml' });
      expect(xml.status).toBe(415);
      expect(xml.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const big = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001' }, description: 'x'.repeat(9 * 1024 * 1024) });
      expect(big.status).toBe(413);
    });

    it('takes JSON bodies in every media type the v3 document declares (text/json, application/*+json), with the same rules', async () => {
      for (const contentType of ['text/json', 'application/vnd.erp.sales-order+json', 'text/json; charset=utf-8']) {
        const response = await send('POST', '/api/v3/SalesOrders', { ...NEW_ORDER, type: 'CM' }, { 'content-type': contentType });
        expect([contentType, response.status]).toEqual([contentType, 201]);
      }
      const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
      expect((await send('POST', '/api/v3/SalesOrders', deep, { 'content-type': 'application/vnd.erp.sales-order+json' })).status).toBe(400);
      const nul = await send('POST', '/api/v3/SalesOrders', { ...NEW_ORDER, description: 'a\u0000b' }, { 'content-type': 'text/json' });
      expect(nul.status).toBe(400);
    });

    it('refuses unknown query parameters on a single read', async () => {
      expect((await send('GET', '/api/v3/SalesOrders/SO/000001?expnad=lines')).status).toBe(400);
    });
  });
});
