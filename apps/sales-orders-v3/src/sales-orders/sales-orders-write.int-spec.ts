import { etagOfVersion, insertCustomerSnapshots, orderRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';
import { plainTotals } from '../testing/order-totals-model';

const A = '1000001';
let t: SalesOrdersTestApp;
let headers: Record<string, string>;

interface Line {
  lineId: number;
  sortOrder: number;
  inventory: { id: string; description: string | null };
  description: string | null;
  quantity: number;
  unitPrice: number;
  discountPercent: number;
  extendedPrice: number;
  unitOfMeasure: string | null;
  warehouseId: string | null;
  requestDate: string | null;
  note: string | null;
}

interface Order {
  type: string;
  orderId: string;
  date: string;
  requestOn: string | null;
  cancelBy: string | null;
  description: string | null;
  note?: string | null;
  currencyId: string | null;
  status: { description: string; hold: boolean; cancelled: boolean };
  customer?: { id: string; name: string; order: string | null; refNo: string | null };
  billing?: { address?: Record<string, unknown>; contact?: Record<string, unknown> };
  shipping?: { address?: Record<string, unknown>; contact?: Record<string, unknown> };
  paymentSettings?: { paymentMethod?: { id: string; description: string | null } };
  financialInformation?: { terms?: { id: string; description: string | null } };
  totals: { discountTotal: number; orderTotal: number };
  orderQty: number;
  lines?: Line[];
  attachments?: unknown[];
  lastModified: string;
  version: string;
}

interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  errors?: Record<string, string[]>;
  details?: Array<{ code: string; message: string; parameters: { property: string } }>;
}

function withoutContentType(h: Record<string, string>): Record<string, string> {
  const { 'content-type': _omitted, ...rest } = h;
  return rest;
}

function send(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return t.http.request(path, {
    method,
    headers: { ...(body === undefined ? withoutContentType(headers) : headers), ...extra },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function create(body: Record<string, unknown>): Promise<{ response: Response; order: Order }> {
  const response = await send('POST', '/api/v3/SalesOrders', body);
  const order = (await response.json()) as Order;
  if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${JSON.stringify(order)}`);
  return { response, order };
}

async function get(path: string): Promise<{ response: Response; order: Order; text: string }> {
  const response = await send('GET', path);
  const text = await response.text();
  return { response, order: JSON.parse(text) as Order, text };
}

const NEW_ORDER = {
  type: 'SO',
  customer: { id: '10001', order: 'PO-4711', refNo: 'REF-1' },
  description: 'Spring delivery',
  note: 'Leave at the back door',
  orderLines: [
    { inventoryId: 'STOCKITEM1', quantity: 4, unitPrice: 101.25 },
    { inventoryId: 'STOCKITEM2', quantity: '2.5', unitPrice: '10.10', discountPercent: 10, description: 'Blue', unitOfMeasure: 'KG' },
  ],
};

describe('sales-orders-v3 create, read, update, delete', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('write');
    headers = await t.headers(A);
    await insertCustomerSnapshots(t.sql, A, [
      { id: '10001', name: 'Acme AS', currencyId: 'NOK' },
      { id: '10002', name: 'Fjord Shipping AB', currencyId: 'SEK' },
      { id: '10003', name: 'Closed Down Ltd', status: 'Inactive' },
    ]);
    // Order lines name items of the company's catalogue: the items these tests use, created as integrators do.
    await putInventoryItems(t, A, ['STOCKITEM1', 'STOCKITEM2', 'X', 'A', 'B', 'C', 'D', ...Array.from({ length: 3000 }, (_, i) => `ITEM-${i + 1}`)]);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

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
        await t.sql.query(
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
      await t.sql.query(`UPDATE customer_snapshots SET name = 'Acme Holding AS' WHERE company_id = $1 AND customer_id = '10001'`, [A]);
      const { order } = await get('/api/v3/SalesOrders/SO/000001?expand=customer');
      expect(order.customer).toEqual({ id: '10001', name: 'Acme Holding AS', order: 'PO-4711', refNo: 'REF-1' });
      await t.sql.query(`UPDATE customer_snapshots SET name = 'Acme AS' WHERE company_id = $1 AND customer_id = '10001'`, [A]);
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
      const big = (await t.sql.query(`SELECT order_id FROM sales_orders WHERE company_id = $1 AND last_line_id = 3000`, [A])).rows[0].order_id as string;
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

      const before = await orderRows(t.sql, A, 'SO', '000002');
      const stale = await send('PATCH', '/api/v3/SalesOrders/SO/000002', { description: 'Second change' }, { 'if-match': etag });
      expect(stale.status).toBe(412);
      expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await stale.json()) as Problem).type).toBe('urn:erp:problem:precondition-failed');
      expect(await orderRows(t.sql, A, 'SO', '000002')).toEqual(before);
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
      const before = await orderRows(t.sql, A, 'SO', '000002');
      const response = await send('PATCH', '/api/v3/SalesOrders/SO/000002', { description: 'No precondition' });
      expect(response.status).toBe(428);
      expect(((await response.json()) as Problem).type).toBe('urn:erp:problem:precondition-required');
      expect(await orderRows(t.sql, A, 'SO', '000002')).toEqual(before);
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
        await t.sql.query(`SELECT count(*)::int AS count FROM sales_order_lines l WHERE l.company_id = $1 AND NOT EXISTS
          (SELECT 1 FROM sales_orders o WHERE o.company_id = l.company_id AND o.internal_id = l.order_internal_id)`, [A])
      ).rows;
      expect(count).toBe(0);
      // The number is not given again.
      const next = await create({ type: 'SO', customer: { id: '10001' } });
      expect(next.order.orderId).not.toBe(orderId);
    });
  });

  describe('bad input: 400 problem+json with errors and details, nothing stored', () => {
    async function counts(): Promise<unknown> {
      return (await t.sql.query(`SELECT (SELECT count(*) FROM sales_orders) AS orders, (SELECT count(*) FROM sales_order_lines) AS lines, (SELECT count(*) FROM outbox) AS events`)).rows[0];
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
      const before = await orderRows(t.sql, A, 'SO', '000001');
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
      expect(await orderRows(t.sql, A, 'SO', '000001')).toEqual(before);
    });

    it('refuses a lineId beyond the line id column (integer) with a 400 listing it, and applies nothing', async () => {
      const before = await orderRows(t.sql, A, 'SO', '000001');
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
      expect(await orderRows(t.sql, A, 'SO', '000001')).toEqual(before);
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
