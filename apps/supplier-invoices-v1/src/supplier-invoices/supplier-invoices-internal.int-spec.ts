import { randomUUID } from 'node:crypto';
import { AttachmentCreated, createEvent, INTERNAL_ROUTES, readInternalBody, SupplierInvoiceEventData, TOPICS } from '@erp/contracts';
import { describeInternalRouteRules, TestEventProducer } from '@erp/testing';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const A = '1000001';
const B = '2000002';
const CALLER = 'attachments-v1';
let t: SupplierInvoicesTestApp;
let reference: string;

async function create(company: string): Promise<string> {
  const response = await t.http.request('/v1/supplierInvoice', {
    method: 'POST',
    headers: { ...(await t.auth.headers({ company })), 'content-type': 'application/json' },
    body: JSON.stringify({ supplier: { number: 'S-1' }, currencyId: 'EUR', invoiceLines: [{ quantity: 2, unitPrice: '12.50' }] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { referenceNumber: string }).referenceNumber;
}

async function internal(company: string, path: string, body?: unknown): Promise<Response> {
  const headers = await t.auth.serviceHeaders(CALLER, 'supplier-invoices-v1', company);
  if (body === undefined) return t.http.request(path, { headers });
  return t.http.request(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function attachmentsOf(company: string, ref: string): Promise<Array<{ id: string; name: string; revision: number }>> {
  const response = await t.http.request(`/v1/supplierInvoice/${ref}`, { headers: await t.auth.headers({ company }) });
  return ((await response.json()) as { attachments: Array<{ id: string; name: string; revision: number }> }).attachments;
}

function attachmentCreated(companyId: string, objectId: string, id: string, revision: number, name = 'scan.pdf') {
  return createEvent({
    type: AttachmentCreated.TYPE,
    source: 'attachments-v1',
    companyId,
    subject: `supplierInvoice/${objectId}`,
    data: { id, name, revision, endpoint: 'supplierInvoice', objectId, contentType: 'application/pdf', size: 10, sha256: 'b'.repeat(64), link: AttachmentCreated.attachmentLink(id, revision) },
  });
}

describe('supplier-invoices-v1 internal API (docs/cross-service-reads.md)', () => {
  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
    reference = await create(A);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  describe('GET /internal/v1/supplier-invoices/{referenceNumber}', () => {
    it('answers the invoice exactly as its latest event carries it', async () => {
      const response = await internal(A, INTERNAL_ROUTES.supplierInvoice.path(reference));
      expect(response.status).toBe(200);
      const body: unknown = await response.json();
      expect(() => readInternalBody(SupplierInvoiceEventData, body, 'the answer')).not.toThrow();
      const latest = await t.sql.query(`SELECT payload FROM outbox WHERE payload->>'subject' = $1 ORDER BY sequence DESC LIMIT 1`, [reference]);
      expect(body).toEqual(latest.rows[0].payload.data);
      expect(body).toMatchObject({ referenceNumber: reference, amount: '25.00' });
    });

    it("answers 404 for a reference the company does not have, and for another company's invoice", async () => {
      expect((await internal(A, INTERNAL_ROUTES.supplierInvoice.path('999999'))).status).toBe(404);
      await create(B);
      const theirs = await create(B);
      expect((await internal(A, INTERNAL_ROUTES.supplierInvoice.path(theirs))).status).toBe(404);
      expect((await internal(B, INTERNAL_ROUTES.supplierInvoice.path(theirs))).status).toBe(200);
    });

    describeInternalRouteRules({ service: 'supplier-invoices-v1', caller: CALLER, app: () => t, company: A, path: () => INTERNAL_ROUTES.supplierInvoice.path(reference) });
  });

  describe('POST /internal/v1/attachment-events', () => {
    it('lists the attachment on the invoice at once (204); the same event from Kafka later changes nothing', async () => {
      const event = attachmentCreated(A, reference, randomUUID(), 1);
      const response = await internal(A, INTERNAL_ROUTES.attachmentEvents.path, event);
      expect(response.status).toBe(204);
      expect(await attachmentsOf(A, reference)).toEqual([{ id: event.data.id, name: 'scan.pdf', revision: 1 }]);

      // The same event through Kafka, then a marker after it on the same key (same partition).
      const producer = await TestEventProducer.start();
      try {
        const topic = `${t.topicPrefix}${TOPICS.attachments}`;
        const marker = attachmentCreated(A, reference, randomUUID(), 1, 'marker.pdf');
        await producer.publish(topic, event, marker);
        const deadline = Date.now() + 20_000;
        while ((await attachmentsOf(A, reference)).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      } finally {
        await producer.stop();
      }
      expect(await attachmentsOf(A, reference)).toEqual([
        { id: event.data.id, name: 'scan.pdf', revision: 1 },
        expect.objectContaining({ name: 'marker.pdf', revision: 1 }),
      ]);
    });

    it('keeps the newer revision whichever way it came first', async () => {
      const id = randomUUID();
      expect((await internal(A, INTERNAL_ROUTES.attachmentEvents.path, attachmentCreated(A, reference, id, 3, 'v3.pdf'))).status).toBe(204);
      expect((await internal(A, INTERNAL_ROUTES.attachmentEvents.path, attachmentCreated(A, reference, id, 2, 'v2.pdf'))).status).toBe(204);
      expect((await attachmentsOf(A, reference)).find((a) => a.id === id)).toEqual({ id, name: 'v3.pdf', revision: 3 });
    });

    it("refuses an event of another company than the call's (400) and one that breaks the contract (400), changing nothing", async () => {
      const before = await attachmentsOf(A, reference);
      const foreign = await internal(A, INTERNAL_ROUTES.attachmentEvents.path, attachmentCreated(B, reference, randomUUID(), 1));
      expect(foreign.status).toBe(400);
      const broken = { ...attachmentCreated(A, reference, randomUUID(), 1), data: { name: 'x.pdf' } };
      expect((await internal(A, INTERNAL_ROUTES.attachmentEvents.path, broken)).status).toBe(400);
      expect((await internal(A, INTERNAL_ROUTES.attachmentEvents.path, 'not an event')).status).toBe(400);
      expect(await attachmentsOf(A, reference)).toEqual(before);
    });

    it('accepts an envelope with fields a newer attachments release adds (204), as the event consumer does', async () => {
      const event = attachmentCreated(A, reference, randomUUID(), 1, 'newer.pdf');
      const newer = { ...event, traceState: 'vendor=1', data: { ...event.data, checksum: 'sha256:00' } };
      expect((await internal(A, INTERNAL_ROUTES.attachmentEvents.path, newer)).status).toBe(204);
      expect((await attachmentsOf(A, reference)).find((a) => a.id === event.data.id)).toEqual({ id: event.data.id, name: 'newer.pdf', revision: 1 });
    });

    it('names every field that breaks the contract in the 400', async () => {
      const broken = { ...attachmentCreated(A, reference, randomUUID(), 1), data: { name: 'x.pdf' } };
      const response = await internal(A, INTERNAL_ROUTES.attachmentEvents.path, broken);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/data\.id/);
    });

    it('refuses a user token (401)', async () => {
      const user = await t.auth.headers({ company: A });
      const response = await t.http.request(INTERNAL_ROUTES.attachmentEvents.path, {
        method: 'POST',
        headers: { ...user, 'content-type': 'application/json' },
        body: JSON.stringify(attachmentCreated(A, reference, randomUUID(), 1)),
      });
      expect(response.status).toBe(401);
    });
  });
});
