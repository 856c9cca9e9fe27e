import { etagOfVersion, orderRows } from '../testing/sales-orders-test-app';
import { plainTotals } from '../testing/order-totals-model';
import { A, NEW_ORDER, type Order, type Problem, useSalesOrdersWriteTestApp } from '../testing/sales-orders-write-kit';

describe('sales-orders-v3 update and delete', () => {
  // SO 000002 (customer 10002, on hold) is changed by one PATCH test after another (each reads the
  // ETag it needs or sends '*'): they stay together, in their original order, so that each finds
  // 000002 as it did before this file was split from the write spec.
  const { app, send, create, get } = useSalesOrdersWriteTestApp('write-patch', {
    async seed({ create }) {
      await create(NEW_ORDER);
      await create({ type: 'SO', customer: { id: '10002' }, status: 'Hold' });
    },
  });

  describe('PATCH and ETags', () => {
    it('GET -> PATCH with its ETag -> 202 with a new ETag -> PATCH with the old one -> 412', async () => {
      const read = await get('/api/v3/SalesOrders/SO/000002');
      const etag = read.response.headers.get('etag')!;
      const patched = await send('PATCH', '/api/v3/SalesOrders/SO/000002', { description: 'First change' }, { 'if-match': etag });
      expect(patched.status).toBe(202);
      const newEtag = patched.headers.get('etag')!;
      expect(newEtag).toMatch(/^"\d+"$/);
      expect(newEtag).not.toBe(etag);
      const body = (await patched.json()) as Order;
      expect(body.description).toBe('First change');
      expect(etagOfVersion(body.version)).toBe(newEtag);

      const before = await orderRows(app().sql, A, 'SO', '000002');
      const stale = await send('PATCH', '/api/v3/SalesOrders/SO/000002', { description: 'Second change' }, { 'if-match': etag });
      expect(stale.status).toBe(412);
      expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await stale.json()) as Problem).type).toBe('urn:erp:problem:precondition-failed');
      expect(await orderRows(app().sql, A, 'SO', '000002')).toEqual(before);
      expect((await get('/api/v3/SalesOrders/SO/000002')).response.headers.get('etag')).toBe(newEtag);
    });

    it('accepts the ETag of POST for the first PATCH', async () => {
      const { response } = await create({ type: 'SO', customer: { id: '10001' } });
      const location = response.headers.get('location')!;
      const patched = await send('PATCH', location, { status: 'Hold' }, { 'if-match': response.headers.get('etag')! });
      expect(patched.status).toBe(202);
      expect(((await patched.json()) as Order).status).toEqual({ description: 'Hold', hold: true, cancelled: false });
    });

    it('requires If-Match: 428 without it, and nothing changes', async () => {
      const before = await orderRows(app().sql, A, 'SO', '000002');
      const response = await send('PATCH', '/api/v3/SalesOrders/SO/000002', { description: 'No precondition' });
      expect(response.status).toBe(428);
      expect(((await response.json()) as Problem).type).toBe('urn:erp:problem:precondition-required');
      expect(await orderRows(app().sql, A, 'SO', '000002')).toEqual(before);
    });

    it('lets If-Match: * match any version, never a weak or malformed tag', async () => {
      expect((await send('PATCH', '/api/v3/SalesOrders/SO/000002', { note: 'star' }, { 'if-match': '*' })).status).toBe(202);
      const current = (await get('/api/v3/SalesOrders/SO/000002')).response.headers.get('etag')!;
      for (const ifMatch of [`W/${current}`, '"abc"', '"99999999999999999999999"', '""']) {
        expect((await send('PATCH', '/api/v3/SalesOrders/SO/000002', { note: 'x' }, { 'if-match': ifMatch })).status).toBe(412);
      }
      expect((await send('PATCH', '/api/v3/SalesOrders/SO/000002', { note: 'list' }, { 'if-match': `"1", ${current}` })).status).toBe(202);
    });

    it('changes header fields and lines in one body, recomputing totals', async () => {
      const { response, order } = await create({
        type: 'SO',
        customer: { id: '10001' },
        billing: { address: { line1: 'Storgata 1', city: 'Oslo', countryId: 'NO' } },
        orderLines: [
          { inventoryId: 'A', quantity: 1, unitPrice: 100 },
          { inventoryId: 'B', quantity: 2, unitPrice: 50 },
          { inventoryId: 'C', quantity: 3, unitPrice: 10 },
        ],
      });
      const patched = await send(
        'PATCH',
        response.headers.get('location')!,
        {
          description: 'Changed',
          customer: { id: '10002', order: 'PO-9' },
          billing: { address: { city: 'Drammen' }, contact: { name: 'Per' } },
          requestOn: '2026-07-01',
          lines: [
            { operation: 'update', lineId: 1, quantity: 2, discountPercent: 50 },
            { operation: 'delete', lineId: 2 },
            { operation: 'insert', inventoryId: 'D', quantity: '0.5', unitPrice: '0.3', note: 'new' },
            { operation: 'update', lineId: 3, description: 'Third', note: null },
          ],
        },
        { 'if-match': response.headers.get('etag')! },
      );
      expect(patched.status).toBe(202);
      const body = (await patched.json()) as Order;
      expect(body).toMatchObject({
        description: 'Changed',
        customer: { id: '10002', name: 'Fjord Shipping AB', order: 'PO-9', refNo: null },
        requestOn: '2026-07-01T00:00:00.000Z',
        currencyId: 'NOK',
      });
      expect(body.billing!.address).toMatchObject({ line1: 'Storgata 1', city: 'Drammen', country: { id: 'NO', name: null } });
      expect(body.billing!.contact).toEqual({ name: 'Per', attention: null, email: null, phone1: null });
      expect(body.lines!.map((l) => [l.lineId, l.inventory.id, l.quantity, l.extendedPrice])).toEqual([
        [1, 'A', 2, 100],
        [3, 'C', 3, 30],
        [4, 'D', 0.5, 0.15],
      ]);
      expect(body.lines![1].description).toBe('Third');
      expect(body.lines![2]).toMatchObject({ sortOrder: 4, note: 'new' });
      expect(body.totals).toEqual(plainTotals({ discountTotal: 100, orderTotal: 130.15 }));
      expect(body.orderQty).toBe(5.5);
      expect(order.version).not.toBe(body.version);
    });

    it('never reuses a deleted line id', async () => {
      const { response } = await create({ type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: 1 }, { inventoryId: 'B', quantity: 1, unitPrice: 1 }] });
      const del = await send('PATCH', response.headers.get('location')!, { lines: [{ operation: 'delete', lineId: 2 }] }, { 'if-match': '*' });
      expect(del.status).toBe(202);
      const ins = await send('PATCH', response.headers.get('location')!, { lines: [{ operation: 'insert', inventoryId: 'C', quantity: 1, unitPrice: 1 }] }, { 'if-match': '*' });
      expect(((await ins.json()) as Order).lines!.map((l) => l.lineId)).toEqual([1, 3]);
    });

    it('refuses an unknown or inactive customer on PATCH with the reference codes', async () => {
      for (const [id, code] of [
        ['99999', '0007-UnknownReference'],
        ['10003', '0008-InactiveReference'],
      ]) {
        const response = await send('PATCH', '/api/v3/SalesOrders/SO/000002', { customer: { id } }, { 'if-match': '*' });
        expect(response.status).toBe(400);
        const problem = (await response.json()) as Problem;
        expect(problem.details).toEqual([expect.objectContaining({ code, parameters: { property: 'customer.id' } })]);
      }
    });

    it('answers 404 to PATCH of an order that does not exist, before looking at If-Match or the body', async () => {
      expect((await send('PATCH', '/api/v3/SalesOrders/SO/999999', { note: 'x' }, { 'if-match': '*' })).status).toBe(404);
      expect((await send('PATCH', '/api/v3/SalesOrders/SO/999999', { note: 5 }, { 'if-match': '"1"' })).status).toBe(404);
    });

    it('answers 412 before 400 when the ETag is stale and the body is invalid', async () => {
      expect((await send('PATCH', '/api/v3/SalesOrders/SO/000002', { status: 'Sleeping' }, { 'if-match': '"1"' })).status).toBe(412);
    });
  });

  describe('DELETE', () => {
    it('requires If-Match (428), refuses a stale one (412), then deletes (202) and the order is gone (404)', async () => {
      const { response } = await create({ type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: 1 }] });
      const location = response.headers.get('location')!;
      const etag = response.headers.get('etag')!;
      expect((await send('DELETE', location)).status).toBe(428);
      await send('PATCH', location, { note: 'moved on' }, { 'if-match': etag });
      expect((await send('DELETE', location, undefined, { 'if-match': etag })).status).toBe(412);
      const current = (await get(location)).response.headers.get('etag')!;
      const deleted = await send('DELETE', location, undefined, { 'if-match': current });
      expect(deleted.status).toBe(202);
      expect(await deleted.text()).toBe('');
      expect((await send('GET', location)).status).toBe(404);
      expect((await send('DELETE', location, undefined, { 'if-match': '*' })).status).toBe(404);
      const orderId = location.split('/').pop();
      const [{ count }] = (
        await app().sql.query(`SELECT count(*)::int AS count FROM sales_order_lines l WHERE l.company_id = $1 AND NOT EXISTS
          (SELECT 1 FROM sales_orders o WHERE o.company_id = l.company_id AND o.internal_id = l.order_internal_id)`, [A])
      ).rows;
      expect(count).toBe(0);
      // The number is not given again.
      const next = await create({ type: 'SO', customer: { id: '10001' } });
      expect(next.order.orderId).not.toBe(orderId);
    });
  });
});
