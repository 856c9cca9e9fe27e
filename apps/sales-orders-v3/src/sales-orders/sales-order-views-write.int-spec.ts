import { orderRows, outboxRows } from '../testing/sales-orders-test-app';
import { A, FULL_ORDER, LINES, useSalesOrderViewsTestApp } from '../testing/sales-order-views-kit';

describe('sales-orders-v3 read views: set and removed by writes, and the writes refused', () => {
  const { app, send, view, create, problemOf } = useSalesOrderViewsTestApp('views-write');

  it('PATCH sets and removes view parts (null keeps the document\'s salesPersonId, "" removes it), and the views follow line changes', async () => {
    const { path, etag } = await create();
    const events = (await outboxRows(app().sql)).length;
    const patched = await send('PATCH', path, {
      ifMatch: etag,
      body: { salesPersonId: null, commissionPercent: 10, discounts: [], taxes: [{ taxId: 'EXEMPT', taxCategoryId: 'GOODS', taxRate: 25, exemptTax: true }], rotRut: null, shipments: [] },
    });
    expect(patched.status).toBe(202);
    // a change of view parts is an order change like any other: a new ETag and SALESORDER_UPDATED
    expect(patched.headers.get('etag')).not.toBe(etag);
    expect((await patched.json()) as unknown).toMatchObject({ salesPerson: { id: 'SP01' }, isRotRutDeductable: false });
    const added = (await outboxRows(app().sql)).slice(events);
    expect(added.map((row) => row.event_type)).toEqual(['SALESORDER_UPDATED']);
    expect(added[0].payload.data).toMatchObject({ link: path, version: patched.headers.get('etag')!.slice(1, -1) });
    expect(await view(path, 'commissions')).toEqual([{ salesPersonId: 'SP01', percent: 10, commissionableAmount: 1405.11, amount: 140.51 }]);
    expect(await view(path, 'discounts')).toEqual([]);
    expect(await view(path, 'tax')).toMatchObject([{ taxId: 'EXEMPT', taxableAmount: 1405.11, taxAmount: 0, exemptTax: true }]);
    expect(await view(path, 'rotrut')).toMatchObject({ type: null, distribution: [] });
    expect(await view(path, 'shipment')).toEqual([]);

    // line 2 now earns commission and is in GOODS; line 1 is deleted
    const lines = await send('PATCH', `${path}/lines`, { ifMatch: patched.headers.get('etag')!, body: { lines: [{ lineId: 2, commissionable: true, taxCategoryId: 'GOODS' }] } });
    expect(lines.status).toBe(202);
    const deleted = await send('DELETE', `${path}/lines?ids=1`, { ifMatch: lines.headers.get('etag')! });
    expect(deleted.status).toBe(202);
    expect(await view(path, 'commissions')).toEqual([{ salesPersonId: 'SP01', percent: 10, commissionableAmount: 1022.84, amount: 102.28 }]);
    expect(await view(path, 'tax')).toMatchObject([{ taxId: 'EXEMPT', taxableAmount: 1022.84, taxAmount: 0 }]);

    const removed = await send('PATCH', path, { ifMatch: deleted.headers.get('etag')!, body: { salesPersonId: '' } });
    expect(removed.status).toBe(202);
    expect(await view(path, 'commissions')).toEqual([]);
  });

  describe('400: one problem+json listing every problem of the view parts; nothing is written', () => {
    const BAD = {
      salesPersonId: 'S'.repeat(16),
      commissionPercent: '100.5',
      discounts: [{ discountId: 'BOTH', discountPercent: 5, discountAmount: 1 }, { discountId: 'NONE' }, { discountId: 'BOTH', discountPercent: 1 }, { discountPercent: 1 }],
      taxes: [{ taxId: 'VAT25', taxCategoryId: 'GOODS', taxRate: 101 }, { taxId: 'VAT25', taxCategoryId: 'FOOD', taxRate: 12, taxType: 'GST' }, { taxId: 'X' }],
      rotRut: { type: 'ROOT', distributedAutomatically: true, organizationNumber: '12', distribution: [{ lineId: 0, personalId: 'abc', amount: 5 }] },
      shipments: [{ id: 'SH1', quantity: 0 }, { id: 'SH1', date: 'yesterday', quantity: 1, weight: -1 }],
    };
    const FIELDS = [
      'commissionPercent',
      'discounts[0].discountAmount',
      'discounts[1].discountPercent',
      'discounts[2]',
      'discounts[3].discountId',
      'rotRut.distribution[0].amount',
      'rotRut.distribution[0].lineId',
      'rotRut.distribution[0].personalId',
      'rotRut.organizationNumber',
      'rotRut.type',
      'salesPersonId',
      'shipments[0].date',
      'shipments[0].quantity',
      'shipments[1]',
      'shipments[1].date',
      'shipments[1].weight',
      'taxes[0].taxRate',
      'taxes[1]',
      'taxes[1].taxType',
      'taxes[2].taxCategoryId',
      'taxes[2].taxRate',
    ];

    it('on create', async () => {
      const before = await app().sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A]);
      const response = await send('POST', '/api/v3/SalesOrders', {
        body: { type: 'SO', customer: { id: '10001' }, orderLines: [{ ...LINES[0], taxCategoryId: 'TOO-LONG-CAT', commissionable: 'yes' }], ...BAD },
      });
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(Object.keys(problem.errors!).sort()).toEqual([...FIELDS, 'orderLines[0].commissionable', 'orderLines[0].taxCategoryId'].sort());
      expect(await app().sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A])).toMatchObject({ rows: before.rows });
    });

    it('on PATCH (and our array parts refuse null: [] removes)', async () => {
      const { path, etag } = await create();
      const orderId = path.split('/').at(-1)!;
      const before = await orderRows(app().sql, A, 'SO', orderId);
      const response = await send('PATCH', path, { ifMatch: etag, body: BAD });
      expect(response.status).toBe(400);
      expect(Object.keys((await problemOf(response)).errors!).sort()).toEqual([...FIELDS].sort());
      const nulls = await send('PATCH', path, { ifMatch: etag, body: { discounts: null, taxes: null, shipments: null } });
      expect(nulls.status).toBe(400);
      expect(Object.keys((await problemOf(nulls)).errors!).sort()).toEqual(['discounts', 'shipments', 'taxes']);
      expect(await orderRows(app().sql, A, 'SO', orderId)).toEqual(before);
    });
  });

  it('a ROT/RUT distribution names lines the order has after the write: 400 otherwise, nothing written', async () => {
    const person = { personalId: '19800101-1234', amount: 1 };
    const created = await send('POST', '/api/v3/SalesOrders', { body: { ...FULL_ORDER, rotRut: { type: 'ROT', distribution: [{ ...person, lineId: 3 }, { ...person, lineId: 4 }] } } });
    expect(created.status).toBe(400);
    expect(Object.keys((await problemOf(created)).errors!)).toEqual(['rotRut.distribution[1].lineId']);

    const { path, etag } = await create();
    const orderId = path.split('/').at(-1)!;
    const before = await orderRows(app().sql, A, 'SO', orderId);
    const unknown = await send('PATCH', path, { ifMatch: etag, body: { rotRut: { type: 'RUT', distribution: [{ ...person, lineId: 9 }] } } });
    expect(unknown.status).toBe(400);
    expect((await problemOf(unknown)).errors).toEqual({ 'rotRut.distribution[0].lineId': [expect.stringMatching(/line 9 is not on this order/)] });
    const deleted = await send('PATCH', path, { ifMatch: etag, body: { lines: [{ operation: 'delete', lineId: 3 }], rotRut: { type: 'RUT', distribution: [{ ...person, lineId: 3 }] } } });
    expect(deleted.status).toBe(400);
    expect(await orderRows(app().sql, A, 'SO', orderId)).toEqual(before);

    // a line inserted by the same PATCH counts (it gets id 4)
    const inserted = await send('PATCH', path, {
      ifMatch: etag,
      body: { lines: [{ operation: 'insert', inventoryId: 'LABOUR2', quantity: 1, unitPrice: 100 }], rotRut: { type: 'RUT', distributedAutomatically: true, distribution: [{ lineId: 4, personalId: '19800101-1234' }] } },
    });
    expect(inserted.status).toBe(202);
    // 100 with no VAT (no tax category) x 50 %
    expect(await view(path, 'rotrut')).toMatchObject({ type: 'RUT', distribution: [{ lineId: 4, amount: 50 }] });
  });

  it('a lone surrogate in a text kept as jsonb (view parts, billing) is a 400 naming it, not a 500', async () => {
    const response = await send('POST', '/api/v3/SalesOrders', {
      body: { type: 'SO', customer: { id: '10001' }, rotRut: { type: 'ROT', estate: 'a\ud800' }, shipments: [{ id: 'S\udc00', date: '2026-01-01', quantity: 1 }], billing: { address: { line1: '\ud800' } } },
    });
    expect(response.status).toBe(400);
    expect(Object.keys((await problemOf(response)).errors!).sort()).toEqual(['billing.address.line1', 'rotRut.estate', 'shipments[0].id']);
  });
});
