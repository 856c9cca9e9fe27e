import { publishedResponseValidator } from '@erp/testing';
import published from '../../reference/published-v3-view-responses.json';
import { insertCustomerSnapshots, orderRows, outboxRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
const B = '1000002';
let t: SalesOrdersTestApp;

/**
 * Every view answer is validated against the published document's own response schema (the
 * repository's copy in reference/, `additionalProperties: false` and OpenAPI 3.0 `nullable` as
 * published), so a property the document does not declare, or a wrong type, fails here.
 */
const conforms = publishedResponseValidator(published);
function expectPublishedShape(view: string, body: unknown): void {
  expect(conforms(`/api/v3/SalesOrders/{type}/{orderId}/${view}`, body)).toEqual([]);
}

async function send(method: string, path: string, options: { body?: unknown; ifMatch?: string; company?: string } = {}): Promise<Response> {
  const headers = await t.headers(options.company ?? A, options.ifMatch ? { 'if-match': options.ifMatch } : {});
  if (options.body === undefined) delete headers['content-type'];
  return t.http.request(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
}

async function view(path: string, name: string, company = A): Promise<unknown> {
  const response = await send('GET', `${path}/${name}`, { company });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as unknown;
  expectPublishedShape(name, body);
  return body;
}

const LINES = [
  { inventoryId: 'ITEM1', quantity: 4, unitPrice: 101.25, taxCategoryId: 'GOODS' }, // 405.00
  { inventoryId: 'ITEM2', quantity: '2.5', unitPrice: '10.10', discountPercent: 10, taxCategoryId: 'FOOD', commissionable: false }, // 22.73
  { inventoryId: 'LABOUR', quantity: 3, unitPrice: '333.37', taxCategoryId: 'GOODS' }, // 1000.11
];

/** An order of company A with every view part set: the figures in the tests below follow from it. */
const FULL_ORDER = {
  type: 'SO',
  customer: { id: '10001' },
  salesPersonId: 'SP01',
  commissionPercent: '2.5',
  orderLines: LINES,
  discounts: [
    { discountId: 'VOL5', discountSequenceId: '0001', discountPercent: 5 },
    { discountId: 'FIX', discountAmount: '10.00' },
    { discountId: 'SKIP', discountPercent: 50, skipDiscount: true },
  ],
  taxes: [
    { taxId: 'VAT25', taxCategoryId: 'GOODS', taxRate: 25 },
    { taxId: 'VAT12', taxCategoryId: 'FOOD', taxRate: '12', taxType: 'VAT' },
  ],
  rotRut: {
    type: 'ROT',
    distributedAutomatically: true,
    estate: 'Villan 1:23',
    distribution: [
      { lineId: 3, personalId: '19800101-1234' },
      { lineId: 3, personalId: '19820202-5678', extra: true },
      { lineId: 3, personalId: '198403039012' },
    ],
  },
  shipments: [
    { id: 'SH2', date: '2026-02-02', quantity: 1, weight: '2.5' },
    { id: 'SH1', date: '2026-01-15T10:00:00+01:00', quantity: '2.5', type: 'Issue', volume: '0.125', invoiceType: 'IN', invoiceId: '000042' },
  ],
};

async function create(body: object = FULL_ORDER): Promise<{ path: string; etag: string }> {
  const response = await send('POST', '/api/v3/SalesOrders', { body });
  expect(response.status).toBe(201);
  return { path: response.headers.get('location')!, etag: response.headers.get('etag')! };
}

async function problemOf(response: Response): Promise<{ status: number; type?: string; title?: string; errors?: Record<string, string[]> }> {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as { status: number; errors?: Record<string, string[]> };
}

describe('sales-orders-v3 read views (.../commissions, /discounts, /tax, /rotrut, /shipment)', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('views');
    await insertCustomerSnapshots(t.sql, A, [{ id: '10001', name: 'Acme AB', currencyId: 'SEK' }]);
    // Order lines name items of the company's catalogue.
    await putInventoryItems(t, A, ['ITEM1', 'ITEM2', 'LABOUR', 'LABOUR2']);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  describe('computed from the order\'s parts and lines, exactly (line total 1427.84 after line discounts)', () => {
    let path: string;
    beforeAll(async () => {
      ({ path } = await create());
    });

    it('the order shows its salesperson and whether it has a ROT/RUT deduction; its lines their tax category and commissionable', async () => {
      const order = (await (await send('GET', `${path}?expand=lines`)).json()) as { salesPerson: unknown; isRotRutDeductable: boolean; lines: unknown[] };
      expect(order.salesPerson).toEqual({ id: 'SP01', description: null });
      expect(order.isRotRutDeductable).toBe(true);
      expect(order.lines).toEqual([
        expect.objectContaining({ lineId: 1, taxCategoryId: 'GOODS', commissionable: true }),
        expect.objectContaining({ lineId: 2, taxCategoryId: 'FOOD', commissionable: false }),
        expect.objectContaining({ lineId: 3, taxCategoryId: 'GOODS', commissionable: true }),
      ]);
    });

    it('commissions: the percent of the commissionable lines (1405.11 x 2.5 % = 35.12775 -> 35.13)', async () => {
      expect(await view(path, 'commissions')).toEqual([{ salesPersonId: 'SP01', percent: 2.5, commissionableAmount: 1405.11, amount: 35.13 }]);
    });

    it('discounts: each on the order total after line discounts, in the order given; a skipped one shown but not applied', async () => {
      const base = { type: 'Document', discountableAmount: 1427.84, discountableQuantity: 9.5, freeItemQuantity: null, isManual: true };
      expect(await view(path, 'discounts')).toEqual([
        { ...base, discountId: 'VOL5', discountSequenceId: '0001', discountPercent: 5, discountAmount: 71.39, manualOrderIndex: 1, skipDiscount: false },
        { ...base, discountId: 'FIX', discountSequenceId: null, discountPercent: null, discountAmount: 10, manualOrderIndex: 2, skipDiscount: false },
        { ...base, discountId: 'SKIP', discountSequenceId: null, discountPercent: 50, discountAmount: 713.92, manualOrderIndex: 3, skipDiscount: true },
      ]);
    });

    it('tax: per tax, the lines of its category less their share of the applied document discounts (81.39)', async () => {
      const flags = { includeInTaxable: true, exemptTax: false, isPendingTax: false, isReverseTax: false, isStatisticalTax: false };
      // GOODS 1405.11 - round(81.39 x 1405.11 / 1427.84) = 1325.02; FOOD 22.73 - 1.30 = 21.43: together 1427.84 - 81.39
      expect(await view(path, 'tax')).toEqual([
        { taxId: 'VAT25', taxType: 'VAT', taxRate: 25, taxableAmount: 1325.02, taxAmount: 331.26, ...flags },
        { taxId: 'VAT12', taxType: 'VAT', taxRate: 12, taxableAmount: 21.43, taxAmount: 2.57, ...flags },
      ]);
    });

    it('rotrut: distributed automatically, 30 % of the line with its VAT (1000.11 x 1.25 x 0.30 = 375.04) split equally, the odd cent to the first', async () => {
      expect(await view(path, 'rotrut')).toEqual({
        type: 'ROT',
        distributedAutomatically: true,
        appartment: null,
        estate: 'Villan 1:23',
        organizationNumber: null,
        distribution: [
          { lineId: 3, personalId: '19800101-1234', amount: 125.02, extra: null },
          { lineId: 3, personalId: '19820202-5678', amount: 125.01, extra: true },
          { lineId: 3, personalId: '198403039012', amount: 125.01, extra: null },
        ],
      });
    });

    it('shipment: in date order, dates in UTC, weight and volume 0 when not given', async () => {
      const none = { inventoryDocumentType: null, inventoryReferenceId: null };
      expect(await view(path, 'shipment')).toEqual([
        { id: 'SH1', date: '2026-01-15T09:00:00.000Z', type: 'Issue', quantity: 2.5, weight: 0, volume: 0.125, invoiceType: 'IN', invoiceId: '000042', ...none },
        { id: 'SH2', date: '2026-02-02T00:00:00.000Z', type: null, quantity: 1, weight: 2.5, volume: 0, invoiceType: null, invoiceId: null, ...none },
      ]);
    });
  });

  it('an order without view parts: empty lists, and a ROT/RUT object without a type', async () => {
    const { path } = await create({ type: 'SO', customer: { id: '10001' }, orderLines: [LINES[0]] });
    for (const name of ['commissions', 'discounts', 'tax', 'shipment']) expect(await view(path, name)).toEqual([]);
    expect(await view(path, 'rotrut')).toEqual({ type: null, distributedAutomatically: false, appartment: null, estate: null, organizationNumber: null, distribution: [] });
  });

  it('manual ROT/RUT amounts are shown as given', async () => {
    const { path } = await create({
      ...FULL_ORDER,
      rotRut: { type: 'RUT', organizationNumber: '556677-8899', appartment: '1102', distribution: [{ lineId: 3, personalId: '19800101-1234', amount: '99.95' }] },
    });
    expect(await view(path, 'rotrut')).toMatchObject({ type: 'RUT', distributedAutomatically: false, distribution: [{ lineId: 3, amount: 99.95 }] });
  });

  it('PATCH sets and removes view parts (null keeps the document\'s salesPersonId, "" removes it), and the views follow line changes', async () => {
    const { path, etag } = await create();
    const events = (await outboxRows(t.sql)).length;
    const patched = await send('PATCH', path, {
      ifMatch: etag,
      body: { salesPersonId: null, commissionPercent: 10, discounts: [], taxes: [{ taxId: 'EXEMPT', taxCategoryId: 'GOODS', taxRate: 25, exemptTax: true }], rotRut: null, shipments: [] },
    });
    expect(patched.status).toBe(202);
    // a change of view parts is an order change like any other: a new ETag and SALESORDER_UPDATED
    expect(patched.headers.get('etag')).not.toBe(etag);
    expect((await patched.json()) as unknown).toMatchObject({ salesPerson: { id: 'SP01' }, isRotRutDeductable: false });
    const added = (await outboxRows(t.sql)).slice(events);
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
      const before = await t.sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A]);
      const response = await send('POST', '/api/v3/SalesOrders', {
        body: { type: 'SO', customer: { id: '10001' }, orderLines: [{ ...LINES[0], taxCategoryId: 'TOO-LONG-CAT', commissionable: 'yes' }], ...BAD },
      });
      expect(response.status).toBe(400);
      const problem = await problemOf(response);
      expect(Object.keys(problem.errors!).sort()).toEqual([...FIELDS, 'orderLines[0].commissionable', 'orderLines[0].taxCategoryId'].sort());
      expect(await t.sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A])).toMatchObject({ rows: before.rows });
    });

    it('on PATCH (and our array parts refuse null: [] removes)', async () => {
      const { path, etag } = await create();
      const orderId = path.split('/').at(-1)!;
      const before = await orderRows(t.sql, A, 'SO', orderId);
      const response = await send('PATCH', path, { ifMatch: etag, body: BAD });
      expect(response.status).toBe(400);
      expect(Object.keys((await problemOf(response)).errors!).sort()).toEqual([...FIELDS].sort());
      const nulls = await send('PATCH', path, { ifMatch: etag, body: { discounts: null, taxes: null, shipments: null } });
      expect(nulls.status).toBe(400);
      expect(Object.keys((await problemOf(nulls)).errors!).sort()).toEqual(['discounts', 'shipments', 'taxes']);
      expect(await orderRows(t.sql, A, 'SO', orderId)).toEqual(before);
    });
  });

  it('a ROT/RUT distribution names lines the order has after the write: 400 otherwise, nothing written', async () => {
    const person = { personalId: '19800101-1234', amount: 1 };
    const created = await send('POST', '/api/v3/SalesOrders', { body: { ...FULL_ORDER, rotRut: { type: 'ROT', distribution: [{ ...person, lineId: 3 }, { ...person, lineId: 4 }] } } });
    expect(created.status).toBe(400);
    expect(Object.keys((await problemOf(created)).errors!)).toEqual(['rotRut.distribution[1].lineId']);

    const { path, etag } = await create();
    const orderId = path.split('/').at(-1)!;
    const before = await orderRows(t.sql, A, 'SO', orderId);
    const unknown = await send('PATCH', path, { ifMatch: etag, body: { rotRut: { type: 'RUT', distribution: [{ ...person, lineId: 9 }] } } });
    expect(unknown.status).toBe(400);
    expect((await problemOf(unknown)).errors).toEqual({ 'rotRut.distribution[0].lineId': [expect.stringMatching(/line 9 is not on this order/)] });
    const deleted = await send('PATCH', path, { ifMatch: etag, body: { lines: [{ operation: 'delete', lineId: 3 }], rotRut: { type: 'RUT', distribution: [{ ...person, lineId: 3 }] } } });
    expect(deleted.status).toBe(400);
    expect(await orderRows(t.sql, A, 'SO', orderId)).toEqual(before);

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

  describe('tenancy and paths', () => {
    it.each(['commissions', 'discounts', 'tax', 'rotrut', 'shipment'])('%s: 404 for another company\'s order, the same as for an unknown one', async (name) => {
      const { path } = await create();
      const other = await send('GET', `${path}/${name}`, { company: B });
      const unknown = await send('GET', `/api/v3/SalesOrders/SO/999999/${name}`);
      const badType = await send('GET', `/api/v3/SalesOrders/XX/000001/${name}`);
      for (const response of [other, unknown, badType]) expect(response.status).toBe(404);
      const sameness = (p: { type?: string; title?: string; status: number }) => ({ type: p.type, title: p.title, status: p.status });
      const otherProblem = await problemOf(other);
      expect(sameness(otherProblem)).toEqual(sameness(await problemOf(unknown)));
      expect(JSON.stringify(otherProblem)).not.toMatch(/SP01|VOL5|VAT25|19800101|SH1/);
    });

    it('an unknown query parameter is a 400', async () => {
      const { path } = await create();
      expect((await send('GET', `${path}/tax?expand=lines`)).status).toBe(400);
    });
  });
});
