import { randomBytes } from 'node:crypto';
import { createEvent, CustomerCreated, CustomerUpdated, SupplierInvoiceCreated, TOPICS, validateEnvelope } from '@erp/contracts';
import { TestEventProducer, PATIENCE_MS } from '@erp/testing';
import { startAttachmentsTestApp, type AttachmentsTestApp } from '../testing/attachments-test-app';

const A = '1000001';
const B = '2000002';
let t: AttachmentsTestApp;
let headers: Record<string, string>;
let producer: TestEventProducer;

interface OutboxRow {
  id: string;
  topic: string;
  message_key: string;
  event_type: string;
  payload: { type: string; source: string; companyId: string; subject: string; data: Record<string, unknown> };
}

async function upload(path: string, name: string, bytes = randomBytes(64)): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
  return t.http.request(path, { method: 'POST', headers, body: form });
}

async function waitFor(description: string, condition: () => Promise<boolean>, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function customerCreated(companyId: string, number: string) {
  return createEvent({
    type: CustomerCreated.TYPE,
    source: 'customers-v1',
    companyId,
    subject: number,
    data: {
      number,
      name: 'Owner AS',
      status: 'Active',
      currencyId: null,
      version: '1',
      lastModifiedDateTime: '2026-01-01T00:00:00.000',
      link: `/v1/customer/${number}`,
    },
  });
}

function invoiceCreated(companyId: string, referenceNumber: string) {
  return createEvent({
    type: SupplierInvoiceCreated.TYPE,
    source: 'supplier-invoices-v1',
    companyId,
    subject: referenceNumber,
    data: {
      referenceNumber,
      documentType: 'Invoice',
      status: 'Balanced',
      supplierNumber: 'S-1',
      amount: '0.00',
      currencyId: null,
      version: '1',
      lastModifiedDateTime: '2026-01-01T00:00:00.000',
      link: `/v1/supplierInvoice/${referenceNumber}`,
    },
  });
}

describe('attachments-v1 events', () => {
  beforeAll(async () => {
    t = await startAttachmentsTestApp();
    headers = await t.auth.headers({ company: A });
    producer = await TestEventProducer.start();
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await producer.stop();
    await t.close();
  });

  it('learns which objects exist from CUSTOMER_CREATED and SUPPLIERINVOICE_CREATED, per company', async () => {
    expect((await upload('/v1/customer/C-1/Attachment', 'a.pdf')).status).toBe(404);
    expect((await upload('/v1/supplierInvoice/000777/Attachment', 'a.pdf')).status).toBe(404);

    await producer.publish(`${t.topicPrefix}${TOPICS.customers}`, customerCreated(A, 'C-1'), customerCreated(B, 'C-2'));
    await producer.publish(`${t.topicPrefix}${TOPICS.supplierInvoices}`, invoiceCreated(A, '000777'));
    await waitFor('the customer to be known', async () => (await upload('/v1/customer/C-1/Attachment', 'a.pdf')).status === 201);
    await waitFor('the invoice to be known', async () => (await upload('/v1/supplierInvoice/000777/Attachment', 'a.pdf')).status === 201);
    // Company B's customer is known for B only.
    const { rows } = await t.sql.query(`SELECT company_id FROM attachment_owners WHERE object_id = 'C-2'`);
    expect(rows).toEqual([{ company_id: B }]);
    expect((await upload('/v1/customer/C-2/Attachment', 'a.pdf')).status).toBe(404);
  });

  it('ignores other events of the owners’ topics and handles a redelivered created event once', async () => {
    const created = customerCreated(A, 'C-3');
    const updated = createEvent({ ...created, id: undefined, type: CustomerUpdated.TYPE, data: created.data });
    await producer.publish(`${t.topicPrefix}${TOPICS.customers}`, created, created, updated);
    await waitFor('C-3 to be known', async () => (await t.sql.query(`SELECT 1 FROM attachment_owners WHERE object_id = 'C-3'`)).rowCount === 1);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1`, [created.id]);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it('writes ATTACHMENT_CREATED with owner, id, name and revision in the upload’s transaction', async () => {
    await t.addOwner(A, 'supplierInvoice', '000900');
    const before = (await t.sql.query(`SELECT count(*)::int AS n FROM outbox`)).rows[0].n as number;
    const first = (await (await upload('/v1/supplierInvoice/000900/Attachment', 'scan.pdf')).json()) as { id: string };
    await upload('/v1/supplierInvoice/000900/Attachment', 'scan.pdf');
    const rows = (
      await t.sql.query<OutboxRow>(`SELECT id, topic, message_key, event_type, payload FROM outbox ORDER BY sequence OFFSET $1`, [before])
    ).rows;
    expect(rows.map((r) => r.event_type)).toEqual(['ATTACHMENT_CREATED', 'ATTACHMENT_CREATED']);
    expect(rows[0]!.topic).toBe(`${t.topicPrefix}${TOPICS.attachments}`);
    expect(rows[0]!.message_key).toBe(`${A}:supplierInvoice/000900`);
    expect(rows.map((r) => r.payload.data)).toEqual([
      expect.objectContaining({ id: first.id, name: 'scan.pdf', revision: 1, endpoint: 'supplierInvoice', objectId: '000900' }),
      expect.objectContaining({ id: first.id, name: 'scan.pdf', revision: 2, link: `/v1/attachment/${first.id}?revision=2` }),
    ]);
    expect(rows[0]!.payload).toMatchObject({ source: 'attachments-v1', companyId: A, subject: 'supplierInvoice/000900' });
    for (const row of rows) expect(validateEnvelope(row.payload, { topic: TOPICS.attachments }).valid).toBe(true);
  });
});
