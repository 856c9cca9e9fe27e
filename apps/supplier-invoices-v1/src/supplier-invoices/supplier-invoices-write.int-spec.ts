import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const A = '1000001';
const B = '2000002';
let t: SupplierInvoicesTestApp;
let headers: Record<string, string>;

interface Invoice {
  documentType: string;
  referenceNumber: string;
  supplier: { number: string; name: string | null };
  supplierReference: string | null;
  date: string;
  dueDate: string | null;
  status: string;
  hold: boolean;
  currencyId: string | null;
  amount: number;
  vatAmount: number;
  balance: number;
  description: string | null;
  invoiceLines: Array<{ lineNumber: number; description: string | null; quantity: number; unitPrice: number; amount: number }>;
  attachments: Array<{ id: string; name: string; revision: number }>;
  createdDateTime: string;
  lastModifiedDateTime: string;
  timeStamp: string;
}

function send(method: string, path: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return t.http.request(path, {
    method,
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const post = (body: unknown, extra?: Record<string, string>) => send('POST', '/v1/supplierInvoice', body, extra);
const put = (ref: string, body: unknown, extra?: Record<string, string>) =>
  send('PUT', `/v1/supplierInvoice/${ref}`, body, extra);

async function get(ref: string, as: Record<string, string> = headers): Promise<{ response: Response; body: Invoice }> {
  const response = await t.http.request(`/v1/supplierInvoice/${ref}`, { headers: as });
  return { response, body: (await response.json()) as Invoice };
}

/** The JSON text of a response, to check the exact digits the server wrote. */
async function text(ref: string): Promise<string> {
  return (await t.http.request(`/v1/supplierInvoice/${ref}`, { headers })).text();
}

const lines = [
  { description: 'Consulting', quantity: 3, unitPrice: 19.99 },
  { description: 'Tiny', quantity: 0.1, unitPrice: '0.2' },
  { description: 'Rounds half up', quantity: '1.005', unitPrice: 1 },
];

describe('supplier-invoices-v1 create, read, update', () => {
  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
    headers = await t.auth.headers({ company: A });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('creates an invoice: 201 with Location, ETag and the record; referenceNumber from the company sequence', async () => {
    const response = await post({
      supplier: { number: 'S-100', name: 'Fjord Timber AS' },
      supplierReference: 'INV-2026-77',
      date: '2026-04-01',
      dueDate: '2026-05-01',
      currencyId: 'NOK',
      vatAmount: '15.25',
      description: 'April services',
      invoiceLines: lines,
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Invoice;
    expect(body.referenceNumber).toBe('000001');
    expect(response.headers.get('location')).toBe('/v1/supplierInvoice/000001');
    expect(response.headers.get('etag')).toBe(`"${body.timeStamp}"`);
    expect(body).toMatchObject({
      documentType: 'Invoice',
      supplier: { number: 'S-100', name: 'Fjord Timber AS' },
      supplierReference: 'INV-2026-77',
      date: '2026-04-01',
      dueDate: '2026-05-01',
      status: 'Balanced',
      hold: false,
      currencyId: 'NOK',
      description: 'April services',
      attachments: [],
    });
    expect(body.createdDateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/);
    expect(body.invoiceLines).toEqual([
      { lineNumber: 1, description: 'Consulting', quantity: 3, unitPrice: 19.99, amount: 59.97 },
      { lineNumber: 2, description: 'Tiny', quantity: 0.1, unitPrice: 0.2, amount: 0.02 },
      { lineNumber: 3, description: 'Rounds half up', quantity: 1.005, unitPrice: 1, amount: 1.01 },
    ]);
    const again = await get('000001');
    expect(again.response.headers.get('etag')).toBe(response.headers.get('etag'));
  });

  it('answers a GET whose If-None-Match holds the current ETag with 304 and no body; a stale one in full', async () => {
    const { response, body } = await get('000001');
    const etag = response.headers.get('etag')!;
    const unchanged = await t.http.request('/v1/supplierInvoice/000001', { headers: { ...headers, 'if-none-match': etag } });
    expect([unchanged.status, unchanged.headers.get('etag'), await unchanged.text()]).toEqual([304, etag, '']);
    const stale = await t.http.request('/v1/supplierInvoice/000001', { headers: { ...headers, 'if-none-match': '"0"' } });
    expect([stale.status, ((await stale.json()) as Invoice).referenceNumber]).toEqual([200, body.referenceNumber]);
  });

  it('computes amounts from the lines with exact decimals: amount = lines + VAT, balance = amount', async () => {
    const json = await text('000001');
    // 59.97 + 0.02 + 1.01 + 15.25, written by Postgres from numeric columns: no float residue.
    expect(json).toContain('"amount" : 76.25');
    expect(json).toContain('"vatAmount" : 15.25');
    expect(json).toContain('"balance" : 76.25');
  });

  it('adds many small amounts without drift', async () => {
    const many = Array.from({ length: 100 }, () => ({ quantity: 1, unitPrice: 0.1 }));
    const created = (await (await post({ supplier: { number: 'S-1' }, invoiceLines: many })).json()) as Invoice;
    expect(await text(created.referenceNumber)).toContain('"amount" : 10.00');
  });

  it('assigns the next free number, skipping numbers a client chose, and refuses a duplicate with 400', async () => {
    expect((await post({ referenceNumber: '000004', supplier: { number: 'S-1' } })).status).toBe(201);
    const next = (await (await post({ supplier: { number: 'S-1' } })).json()) as Invoice;
    expect(next.referenceNumber).toBe('000003');
    const skipped = (await (await post({ supplier: { number: 'S-1' } })).json()) as Invoice;
    expect(skipped.referenceNumber).toBe('000005');

    const duplicate = await post({ referenceNumber: '000004', supplier: { number: 'S-1' } });
    expect(duplicate.status).toBe(400);
    const body = (await duplicate.json()) as { ExceptionFaultCode: string; ExceptionMessage: string };
    expect(body.ExceptionFaultCode).toBe('10004');
    expect(body.ExceptionMessage).toContain('000004');
  });

  it('accepts fields wrapped as { value } the way v1 clients send them', async () => {
    const response = await post({
      supplier: { value: { number: { value: 'S-9' }, name: { value: 'Wrapped AS' } } },
      documentType: { value: 'CreditAdj' },
      hold: { value: true },
      invoiceLines: { value: [{ quantity: { value: 2 }, unitPrice: { value: '5.5' } }] },
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Invoice;
    expect(body).toMatchObject({
      supplier: { number: 'S-9', name: 'Wrapped AS' },
      documentType: 'CreditAdj',
      status: 'Hold',
      hold: true,
      amount: 11,
    });
  });

  it('updates only the fields sent: 204 with a new ETag, amounts recomputed when lines or VAT change', async () => {
    const before = await get('000001');
    const response = await put('000001', { description: 'Corrected', vatAmount: 0 });
    expect(response.status).toBe(204);
    const etag = response.headers.get('etag');
    expect(etag).not.toBe(before.response.headers.get('etag'));
    const after = await get('000001');
    expect(after.response.headers.get('etag')).toBe(etag);
    expect(after.body).toMatchObject({
      description: 'Corrected',
      supplierReference: 'INV-2026-77',
      currencyId: 'NOK',
      vatAmount: 0,
      amount: 61,
      balance: 61,
    });
    expect(after.body.invoiceLines).toHaveLength(3);
    expect(after.body.createdDateTime).toBe(before.body.createdDateTime);
  });

  it('replaces every line when invoiceLines is sent, keeping given line numbers', async () => {
    expect((await put('000001', { invoiceLines: [{ lineNumber: 10, quantity: 4, unitPrice: '2.50', description: 'Only' }] })).status).toBe(204);
    const { body } = await get('000001');
    expect(body.invoiceLines).toEqual([{ lineNumber: 10, description: 'Only', quantity: 4, unitPrice: 2.5, amount: 10 }]);
    expect(body.amount).toBe(10);
  });

  it('clears optional fields with null and closes an invoice with balance 0', async () => {
    expect((await put('000001', { dueDate: null, supplierReference: null, status: 'Closed' })).status).toBe(204);
    const { body } = await get('000001');
    expect(body).toMatchObject({ dueDate: null, supplierReference: null, status: 'Closed', hold: false, amount: 10, balance: 0 });
  });

  it('treats hold as the Hold status: true holds, false releases a held invoice to Balanced', async () => {
    const created = (await (await post({ supplier: { number: 'S-1' }, hold: true })).json()) as Invoice;
    expect(created.status).toBe('Hold');
    expect((await put(created.referenceNumber, { hold: false })).status).toBe(204);
    expect((await get(created.referenceNumber)).body).toMatchObject({ status: 'Balanced', hold: false });
    expect((await put(created.referenceNumber, { status: 'Open', hold: true })).status).toBe(400);
    expect((await put(created.referenceNumber, { status: 'Hold', hold: true })).status).toBe(204);
  });

  it('answers 412 for a stale If-Match and changes nothing; a current or * If-Match applies', async () => {
    const { response } = await get('000003');
    const etag = response.headers.get('etag')!;
    expect((await put('000003', { description: 'first' }, { 'if-match': etag })).status).toBe(204);
    const stale = await put('000003', { description: 'second' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10301');
    expect((await get('000003')).body.description).toBe('first');
    expect((await put('000003', { description: 'third' }, { 'if-match': '*' })).status).toBe(204);
  });

  it('refuses a JSON body that is not an object (null, array, string, number) with a 400, changing nothing', async () => {
    const before = await t.sql.query(`SELECT * FROM supplier_invoices ORDER BY internal_id`);
    for (const body of ['null', '[]', '"x"', '7']) {
      for (const response of [await put('000001', body), await post(body)]) {
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expect(((await response.json()) as { ExceptionMessage: string }).ExceptionMessage).toContain('JSON object');
      }
    }
    expect((await t.sql.query(`SELECT * FROM supplier_invoices ORDER BY internal_id`)).rows).toEqual(before.rows);
  });

  it('refuses a changed referenceNumber and answers 404 for an unknown invoice', async () => {
    expect((await put('000003', { referenceNumber: '000099' })).status).toBe(400);
    expect((await put('NOPE', { description: 'x' })).status).toBe(404);
    expect((await get('NOPE')).response.status).toBe(404);
    expect((await get('..%2F..%2Fetc')).response.status).toBe(404);
  });

  it('lists every invalid field in one 400, including read-only fields a client may not set', async () => {
    const response = await post({
      supplier: { name: 'No number' },
      documentType: 'Bill',
      date: '2026-02-30',
      currencyId: 'kr',
      vatAmount: '1.005',
      amount: 12,
      invoiceLines: [{ quantity: 'many', unitPrice: 1 }, { quantity: 1, unitPrice: '0.0000001' }],
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ExceptionMessage: string; ExceptionFaultCode: string };
    expect(body.ExceptionFaultCode).toBe('10001');
    for (const field of [
      'supplier.number',
      'documentType',
      'date',
      'currencyId',
      'vatAmount',
      'amount',
      'invoiceLines[0].quantity',
      'invoiceLines[1].unitPrice',
    ]) {
      expect(body.ExceptionMessage).toContain(field);
    }
  });

  it('refuses duplicate line numbers and more than 1000 lines', async () => {
    const duplicate = await post({
      supplier: { number: 'S-1' },
      invoiceLines: [{ lineNumber: 1, quantity: 1, unitPrice: 1 }, { lineNumber: 1, quantity: 1, unitPrice: 1 }],
    });
    expect(duplicate.status).toBe(400);
    expect(((await duplicate.json()) as { ExceptionMessage: string }).ExceptionMessage).toContain('invoiceLines[1].lineNumber');
    const tooMany = Array.from({ length: 1001 }, () => ({ quantity: 1, unitPrice: 1 }));
    expect((await post({ supplier: { number: 'S-1' }, invoiceLines: tooMany })).status).toBe(400);
  });

  it('never shows or changes another company’s invoice: 404 as if it did not exist', async () => {
    const other = await t.auth.headers({ company: B });
    expect((await get('000001', other)).response.status).toBe(404);
    const change = await t.http.request('/v1/supplierInvoice/000001', {
      method: 'PUT',
      headers: { ...other, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'hijack' }),
    });
    expect(change.status).toBe(404);
    const list = (await (await t.http.request('/v1/supplierInvoice', { headers: other })).json()) as unknown[];
    expect(list).toEqual([]);
    expect((await get('000001')).body.description).toBe('Corrected');
  });

  it('requires erp:write to create or update', async () => {
    const readOnly = await t.auth.headers({ company: A, scope: 'erp:read' });
    const response = await t.http.request('/v1/supplierInvoice', {
      method: 'POST',
      headers: { ...readOnly, 'content-type': 'application/json' },
      body: JSON.stringify({ supplier: { number: 'S-1' } }),
    });
    expect(response.status).toBe(403);
  });
});
