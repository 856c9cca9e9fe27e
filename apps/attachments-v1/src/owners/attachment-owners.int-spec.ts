import { randomBytes } from 'node:crypto';
import { CustomerEventData, customerLink, INTERNAL_ROUTES, SupplierInvoiceEventData, supplierInvoiceLink } from '@erp/contracts';
import type { InternalApiStub } from '@erp/testing';
import { startAttachmentsTestApp, type AttachmentsTestApp } from '../testing/attachments-test-app';

const A = '1000001';
const B = '2000002';
let t: AttachmentsTestApp;
let customers: InternalApiStub;
let invoices: InternalApiStub;

function customerExists(companyId: string, number: string): void {
  customers.answer(companyId, INTERNAL_ROUTES.customer.path(number), CustomerEventData, {
    number,
    name: 'Owner AS',
    status: 'Active',
    currencyId: null,
    version: '1',
    lastModifiedDateTime: '2026-11-27T10:00:00.000',
    link: customerLink(number),
  });
}

function invoiceExists(companyId: string, referenceNumber: string): void {
  invoices.answer(companyId, INTERNAL_ROUTES.supplierInvoice.path(referenceNumber), SupplierInvoiceEventData, {
    referenceNumber,
    documentType: 'Invoice',
    status: 'Open',
    supplierNumber: 'S-1',
    amount: '10.00',
    currencyId: 'NOK',
    version: '1',
    lastModifiedDateTime: '2026-11-27T10:00:00.000',
    link: supplierInvoiceLink(referenceNumber),
  });
}

async function upload(path: string, company = A, name = 'scan.pdf', viaRecorder = true): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(64)], { type: 'application/pdf' }), name);
  const init = { method: 'POST', headers: await t.auth.headers({ company }), body: form };
  return viaRecorder ? t.http.request(path, init) : fetch(`${t.service.url}${path}`, init);
}

const known = async (companyId: string, endpoint: string, objectId: string) =>
  (await t.sql.query(`SELECT 1 FROM attachment_owners WHERE company_id = $1 AND endpoint = $2 AND object_id = $3`, [companyId, endpoint, objectId])).rowCount === 1;
const attachmentCount = async () => Number((await t.sql.query(`SELECT count(*) FROM attachments`)).rows[0].count);

/**
 * An upload names a record whose created event may not have reached this service yet: it is asked
 * of the record's owner (here their internal APIs' stubs, which check the real service tokens and
 * answer only what the contracts allow), and an upload to an invoice is handed to its owner at once.
 */
describe('attachments-v1: owners whose events have not arrived (docs/cross-service-reads.md)', () => {
  beforeAll(async () => {
    t = await startAttachmentsTestApp();
    customers = t.internalApis['customers-v1']!;
    invoices = t.internalApis['supplier-invoices-v1']!;
  });
  afterEach(() => {
    customers.failWith(undefined);
    invoices.failWith(undefined);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('accepts an upload to a customer only customers-v1 knows yet, and keeps it as known', async () => {
    customerExists(A, '10001');
    expect((await upload('/v1/customer/10001/Attachment')).status).toBe(201);
    expect(customers.received).toEqual([expect.objectContaining({ method: 'GET', caller: 'attachments-v1', companyId: A, path: INTERNAL_ROUTES.customer.path('10001') })]);
    expect(await known(A, 'customer', '10001')).toBe(true);
    // Known now: the next upload asks nobody.
    expect((await upload('/v1/customer/10001/Attachment', A, 'second.pdf')).status).toBe(201);
    expect(customers.received).toHaveLength(1);
  });

  it('accepts an upload to an invoice only supplier-invoices-v1 knows yet, and hands the event to it before the 201', async () => {
    invoiceExists(A, '000001');
    const response = await upload('/v1/supplierInvoice/000001/Attachment');
    expect(response.status).toBe(201);
    const uploaded = (await response.json()) as { id: string; revision: number };
    const calls = invoices.received.filter((c) => c.companyId === A);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${INTERNAL_ROUTES.supplierInvoice.path('000001')}`, `POST ${INTERNAL_ROUTES.attachmentEvents.path}`]);
    // The very event of the outbox, so Kafka's copy of it later is a copy.
    const outbox = await t.sql.query(`SELECT payload FROM outbox WHERE payload->'data'->>'id' = $1`, [uploaded.id]);
    expect(calls[1]!.body).toEqual(outbox.rows[0].payload);
  });

  it('hands nothing to customers-v1, which lists no attachments', async () => {
    customerExists(A, '10002');
    expect((await upload('/v1/customer/10002/Attachment')).status).toBe(201);
    expect(customers.received.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("answers 404 when the owner has no such record for the company, after one call, for the caller's company only", async () => {
    customerExists(B, '10003');
    const before = await attachmentCount();
    expect((await upload('/v1/customer/10003/Attachment')).status).toBe(404);
    expect(customers.received.filter((c) => c.path === INTERNAL_ROUTES.customer.path('10003'))).toEqual([expect.objectContaining({ companyId: A })]);
    expect(await known(A, 'customer', '10003')).toBe(false);
    expect(await attachmentCount()).toBe(before);
  });

  it('answers 503 with Retry-After when the owner cannot be asked, storing nothing', async () => {
    invoiceExists(A, '000002');
    invoices.failWith(503);
    const before = await attachmentCount();
    const keysBefore = await t.storedKeys();
    const response = await upload('/v1/supplierInvoice/000002/Attachment', A, 'scan.pdf', false);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await attachmentCount()).toBe(before);
    expect(await t.storedKeys()).toEqual(keysBefore);
  });

  it('keeps the upload (201) when the invoice owner cannot be told now: its event brings the news later', async () => {
    invoiceExists(A, '000003');
    expect((await upload('/v1/supplierInvoice/000003/Attachment')).status).toBe(201);
    invoices.failWith(503);
    const again = await upload('/v1/supplierInvoice/000003/Attachment', A, 'again.pdf');
    expect(again.status).toBe(201);
    const pushes = invoices.received.filter((c) => c.method === 'POST' && (c.body as { data: { objectId: string } }).data.objectId === '000003');
    // Two attempts for the second upload (both refused), one for the first.
    expect(pushes).toHaveLength(3);
    expect(await t.sql.query(`SELECT 1 FROM outbox WHERE payload->'data'->>'name' = 'again.pdf'`).then((r) => r.rowCount)).toBe(1);
  });
});
