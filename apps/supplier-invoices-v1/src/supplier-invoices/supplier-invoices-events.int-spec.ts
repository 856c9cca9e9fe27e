import { randomUUID } from 'node:crypto';
import { AttachmentCreated, createEvent, TOPICS, validateEnvelope } from '@erp/contracts';
import { TestEventProducer, TopicReader, PATIENCE_MS } from '@erp/testing';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const A = '1000001';
const B = '2000002';
let t: SupplierInvoicesTestApp;
let headers: Record<string, string>;
let producer: TestEventProducer;

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  event_type: string;
  payload: { id: string; type: string; source: string; companyId: string; subject: string; time: string; data: Record<string, unknown> };
}

interface Invoice {
  referenceNumber: string;
  timeStamp: string;
  lastModifiedDateTime: string;
  attachments: Array<{ id: string; name: string; revision: number }>;
}

async function outboxRows(): Promise<OutboxRow[]> {
  return (await t.sql.query<OutboxRow>(`SELECT id, topic, message_key, event_type, payload FROM outbox ORDER BY sequence`)).rows;
}

function send(method: 'POST' | 'PUT', path: string, body: unknown, extra: Record<string, string> = {}): Promise<Response> {
  return t.http.request(path, {
    method,
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
}

async function read(ref: string, as = headers): Promise<Invoice> {
  return (await (await t.http.request(`/v1/supplierInvoice/${ref}`, { headers: as })).json()) as Invoice;
}

async function waitFor(description: string, condition: () => Promise<boolean> | boolean, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An ATTACHMENT_CREATED as the attachments service publishes it. */
function attachmentCreated(companyId: string, objectId: string, id: string, name: string, revision: number, endpoint = 'supplierInvoice') {
  return createEvent({
    type: AttachmentCreated.TYPE,
    source: 'attachments-v1',
    companyId,
    subject: `${endpoint}/${objectId}`,
    data: {
      id,
      name,
      revision,
      endpoint: endpoint as AttachmentCreated.AttachmentOwnerEndpoint,
      objectId,
      contentType: 'application/pdf',
      size: 10,
      sha256: 'a'.repeat(64),
      link: AttachmentCreated.attachmentLink(id, revision),
    },
  });
}

describe('supplier-invoices-v1 events', () => {
  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
    headers = await t.auth.headers({ company: A });
    producer = await TestEventProducer.start();
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await producer.stop();
    await t.close();
  });

  it('writes SUPPLIERINVOICE_CREATED in the transaction of POST, with the exact amount as text', async () => {
    const before = (await outboxRows()).length;
    const response = await send('POST', '/v1/supplierInvoice', {
      supplier: { number: 'S-1' },
      currencyId: 'EUR',
      vatAmount: '0.30',
      invoiceLines: [{ quantity: 3, unitPrice: '0.1' }],
    });
    expect(response.status).toBe(201);
    const invoice = (await response.json()) as Invoice;
    const rows = (await outboxRows()).slice(before);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.event_type).toBe('SUPPLIERINVOICE_CREATED');
    expect(row!.topic).toBe(`${t.topicPrefix}${TOPICS.supplierInvoices}`);
    expect(row!.message_key).toBe(`${A}:${invoice.referenceNumber}`);
    expect(row!.payload).toMatchObject({
      type: 'SUPPLIERINVOICE_CREATED',
      source: 'supplier-invoices-v1',
      companyId: A,
      subject: invoice.referenceNumber,
      time: `${invoice.lastModifiedDateTime}Z`,
      data: {
        referenceNumber: invoice.referenceNumber,
        documentType: 'Invoice',
        status: 'Balanced',
        supplierNumber: 'S-1',
        amount: '0.60',
        currencyId: 'EUR',
        version: invoice.timeStamp,
        lastModifiedDateTime: invoice.lastModifiedDateTime,
        link: `/v1/supplierInvoice/${invoice.referenceNumber}`,
      },
    });
    expect(validateEnvelope(row!.payload, { topic: TOPICS.supplierInvoices }).valid).toBe(true);
  });

  it('writes SUPPLIERINVOICE_UPDATED on PUT, and nothing for a rejected request', async () => {
    const created = (await (await send('POST', '/v1/supplierInvoice', { supplier: { number: 'S-1' } })).json()) as Invoice;
    const before = (await outboxRows()).length;
    const response = await send('PUT', `/v1/supplierInvoice/${created.referenceNumber}`, { status: 'Open', vatAmount: 5 });
    expect(response.status).toBe(204);
    const rows = (await outboxRows()).slice(before);
    expect(rows.map((r) => r.event_type)).toEqual(['SUPPLIERINVOICE_UPDATED']);
    expect(rows[0]!.payload.data).toMatchObject({ status: 'Open', amount: '5.00' });
    expect(`"${rows[0]!.payload.data['version'] as string}"`).toBe(response.headers.get('etag'));

    const after = await outboxRows();
    const stale = `"${created.timeStamp}"`;
    expect((await send('PUT', `/v1/supplierInvoice/${created.referenceNumber}`, { status: 'Hold' }, { 'if-match': stale })).status).toBe(412);
    expect((await send('PUT', `/v1/supplierInvoice/${created.referenceNumber}`, { status: 'Paid' })).status).toBe(400);
    expect((await send('PUT', '/v1/supplierInvoice/NOPE', { status: 'Open' })).status).toBe(404);
    expect((await send('POST', '/v1/supplierInvoice', { supplier: {} })).status).toBe(400);
    expect(await outboxRows()).toEqual(after);
  });

  it('publishes its events to Kafka, keyed by company and invoice', async () => {
    const reader = await TopicReader.start([`${t.topicPrefix}${TOPICS.supplierInvoices}`]);
    try {
      const created = (await (await send('POST', '/v1/supplierInvoice', { supplier: { number: 'S-7' } })).json()) as Invoice;
      await send('PUT', `/v1/supplierInvoice/${created.referenceNumber}`, { description: 'changed' });
      const mine = () => reader.events().filter((event) => event.subject === created.referenceNumber);
      await waitFor('both events of the invoice', () => mine().length >= 2);
      expect(mine().map((event) => event.type)).toEqual(['SUPPLIERINVOICE_CREATED', 'SUPPLIERINVOICE_UPDATED']);
      expect(reader.messages.filter((m) => m.key === `${A}:${created.referenceNumber}`)).toHaveLength(2);
    } finally {
      await reader.stop();
    }
  });

  it('lists attachments announced by ATTACHMENT_CREATED; a later revision replaces the earlier one', async () => {
    const invoice = (await (await send('POST', '/v1/supplierInvoice', { supplier: { number: 'S-2' } })).json()) as Invoice;
    const ref = invoice.referenceNumber;
    const first = randomUUID();
    const second = randomUUID();
    const topic = `${t.topicPrefix}${TOPICS.attachments}`;
    const created1 = attachmentCreated(A, ref, first, 'scan.pdf', 1);
    await producer.publish(topic, created1, attachmentCreated(A, ref, second, 'terms.txt', 1));
    await waitFor('two attachments on the invoice', async () => (await read(ref)).attachments.length === 2);
    expect((await read(ref)).attachments).toEqual([
      { id: first, name: 'scan.pdf', revision: 1 },
      { id: second, name: 'terms.txt', revision: 1 },
    ]);

    // A new revision, a redelivered duplicate and a late older revision: only the newest counts.
    await producer.publish(topic, attachmentCreated(A, ref, first, 'scan.pdf', 2), created1, attachmentCreated(A, ref, first, 'scan.pdf', 1));
    await waitFor('revision 2 of scan.pdf', async () => (await read(ref)).attachments[0]?.revision === 2);
    // The marker event is handled after the three above (same key, same partition, in order).
    const marker = randomUUID();
    await producer.publish(topic, attachmentCreated(A, ref, marker, 'marker.txt', 1));
    await waitFor('the marker attachment', async () => (await read(ref)).attachments.length === 3);
    expect((await read(ref)).attachments).toEqual([
      { id: first, name: 'scan.pdf', revision: 2 },
      { id: second, name: 'terms.txt', revision: 1 },
      { id: marker, name: 'marker.txt', revision: 1 },
    ]);

    // An attachment is not an edit of the document: version and ETag stay as they were.
    const now = await read(ref);
    expect(now.timeStamp).toBe(invoice.timeStamp);
    expect(now.lastModifiedDateTime).toBe(invoice.lastModifiedDateTime);
  });

  it('ignores customer attachments and keeps each company’s attachments to itself', async () => {
    const invoice = (await (await send('POST', '/v1/supplierInvoice', { supplier: { number: 'S-3' } })).json()) as Invoice;
    const ref = invoice.referenceNumber;
    const topic = `${t.topicPrefix}${TOPICS.attachments}`;
    const customerFile = randomUUID();
    const otherCompany = randomUUID();
    const own = randomUUID();
    await producer.publish(
      topic,
      attachmentCreated(A, ref, customerFile, 'customer.pdf', 1, 'customer'),
      attachmentCreated(B, ref, otherCompany, 'b.pdf', 1),
      attachmentCreated(A, ref, own, 'own.pdf', 1),
    );
    await waitFor('the own attachment', async () => (await read(ref)).attachments.length > 0);
    expect((await read(ref)).attachments).toEqual([{ id: own, name: 'own.pdf', revision: 1 }]);
  });
});
