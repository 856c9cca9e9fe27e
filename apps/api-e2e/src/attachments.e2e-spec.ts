import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { startTestS3Server, TestAuth, type TestS3Server } from '@erp/testing';

const A = '1000001';
const B = '2000002';
const MIB = 1024 * 1024;
const auth = new TestAuth();
let system: RunningSystem;
let testSystem: TestSystem | undefined;
const statuses: Array<{ path: string; status: number }> = [];
let storageDir: string | undefined;
let s3: TestS3Server | undefined;
// The service integration tests run both storage drivers; this suite runs the filesystem one,
// or S3 (against s3rver) with E2E_ATTACHMENTS_DRIVER=s3.
const driver = process.env.E2E_ATTACHMENTS_DRIVER === 's3' ? 's3' : 'filesystem';

interface Invoice {
  referenceNumber: string;
  attachments: Array<{ id: string; name: string; revision: number }>;
}

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${system.baseUrl}${path}`, init);
  statuses.push({ path, status: response.status });
  return response;
}

async function jsonHeaders(company = A): Promise<Record<string, string>> {
  return { ...(await auth.headers({ company })), 'content-type': 'application/json' };
}

async function createInvoice(company = A): Promise<Invoice> {
  const response = await call('/v1/supplierInvoice', {
    method: 'POST',
    headers: await jsonHeaders(company),
    body: JSON.stringify({ supplier: { number: 'S-E2E', name: 'Gateway Supplies AS' }, invoiceLines: [{ quantity: 2, unitPrice: '99.50' }] }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Invoice;
}

/**
 * One upload, sent once: the attachments service knows an invoice created a moment before
 * (docs/cross-service-reads.md), so it is never 404 for a record that exists.
 */
async function upload(ref: string, bytes: Buffer, name: string, company = A): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), name);
  return call(`/v1/supplierInvoice/${ref}/Attachment`, { method: 'POST', headers: await auth.headers({ company }), body: form });
}

/** The invoice as read right now: it lists an upload as soon as the upload's 201 was answered. */
async function readInvoice(ref: string): Promise<Invoice> {
  const response = await call(`/v1/supplierInvoice/${ref}`, { headers: await auth.headers({ company: A }) });
  expect(response.status).toBe(200);
  return (await response.json()) as Invoice;
}

/** The spec's fetch step: GET /v1/attachment/{id} (no Accept: the default), Base64-decode the body. */
async function fetchAttachment(id: string, query = ''): Promise<Buffer> {
  const { accept: _none, ...headers } = await auth.headers({ company: A });
  const response = await call(`/v1/attachment/${id}${query}`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; charset=us-ascii');
  return Buffer.from(await response.text(), 'base64');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function pdfLike(size: number): Buffer {
  const head = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  const tail = Buffer.from('\n%%EOF\n', 'latin1');
  const body = randomBytes(size - head.length - tail.length);
  for (let i = 0; i < body.length; i += 50) body[i] = 0;
  return Buffer.concat([head, body, tail]);
}

/**
 * Supplier invoices and attachments end to end: both services (and customers-v1, which
 * attachments-v1 calls) and the gateway as separate processes. The attachment -> invoice link is
 * carried by Kafka events (SUPPLIERINVOICE_CREATED, ATTACHMENT_CREATED) and, for a record created a
 * moment before, by the internal API (docs/cross-service-reads.md): every call here is sent once,
 * right after the one before it.
 */
describe(`supplier invoices and attachments through the api-gateway (${driver} storage)`, () => {
  beforeAll(async () => {
    let storageEnv: Record<string, string>;
    if (driver === 's3') {
      s3 = await startTestS3Server();
      storageEnv = s3.serviceEnv;
    } else {
      storageDir = await mkdtemp(join(tmpdir(), 'erp-e2e-attachments-'));
      storageEnv = { STORAGE_DRIVER: 'filesystem', STORAGE_DIR: storageDir };
    }
    testSystem = await startTestSystem('e2e_at', {
      services: ['supplier-invoices-v1', 'attachments-v1'],
      env: { ATTACHMENT_MAX_BYTES: String(8 * MIB), ...storageEnv },
      auth,
    });
    system = testSystem.system;
  }, 120_000);

  afterAll(async () => {
    expect(statuses.filter((s) => s.status >= 500)).toEqual([]);
    await testSystem?.stop();
    if (storageDir) await rm(storageDir, { recursive: true, force: true });
    await s3?.close();
  });

  it('follows the fetch flow: create invoice, upload, read attachments[].id from the invoice, fetch, Base64-decode, identical bytes', async () => {
    const invoice = await createInvoice();
    expect(invoice.attachments).toEqual([]);
    const files: Array<[string, Buffer]> = [
      ['invoice.pdf', pdfLike(300_000)],
      ['random.bin', randomBytes(65_537)],
      ['zeros inside.dat', Buffer.concat([Buffer.alloc(4096), randomBytes(10), Buffer.alloc(4096)])],
      ['Kvittering №7 — «ø».pdf', pdfLike(2_000)],
      ['C:\\scans\\scan 01.tif', randomBytes(5 * MIB)],
    ];
    // Several files: one POST each.
    const uploaded: Array<{ id: string; name: string; sha256: string }> = [];
    for (const [name, bytes] of files) {
      const response = await upload(invoice.referenceNumber, bytes, name);
      expect(response.status).toBe(201);
      const body = (await response.json()) as { id: string; name: string; sha256: string; size: number };
      expect(response.headers.get('location')).toBe(`/v1/attachment/${body.id}`);
      expect(body.size).toBe(bytes.length);
      expect(body.sha256).toBe(sha256(bytes));
      uploaded.push(body);
    }
    expect(uploaded.map((u) => u.name)).toEqual(['invoice.pdf', 'random.bin', 'zeros inside.dat', 'Kvittering №7 — «ø».pdf', 'scan 01.tif']);

    // All listed on the invoice at once (no waiting for events), then each fetched by the id read from there.
    const read = await readInvoice(invoice.referenceNumber);
    expect(read.attachments).toEqual(uploaded.map((u) => ({ id: u.id, name: u.name, revision: 1 })));
    for (const [index, attachment] of read.attachments.entries()) {
      const bytes = await fetchAttachment(attachment.id);
      expect(bytes.equals(files[index]![1])).toBe(true);
    }
  });

  it('serves the JSON and raw representations through the gateway too', async () => {
    const invoice = await createInvoice();
    const bytes = randomBytes(1_000_003);
    const { id } = (await (await upload(invoice.referenceNumber, bytes, 'both.bin')).json()) as { id: string };
    const headers = await auth.headers({ company: A });
    const json = (await (await call(`/v1/attachment/${id}`, { headers: { ...headers, accept: 'application/json' } })).json()) as {
      name: string;
      size: number;
      content: string;
    };
    expect(json).toMatchObject({ name: 'both.bin', size: bytes.length });
    expect(Buffer.from(json.content, 'base64').equals(bytes)).toBe(true);
    const raw = await call(`/v1/attachment/${id}`, { headers: { ...headers, accept: 'application/octet-stream' } });
    expect(raw.headers.get('content-disposition')).toContain('filename="both.bin"');
    expect(Buffer.from(await raw.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('makes the same name a new revision: the invoice shows revision 2, and revision 1 stays readable', async () => {
    const invoice = await createInvoice();
    const first = randomBytes(3_000);
    const second = randomBytes(4_000);
    const one = (await (await upload(invoice.referenceNumber, first, 'contract.pdf')).json()) as { id: string };
    const two = (await (await upload(invoice.referenceNumber, second, 'contract.pdf')).json()) as { id: string; revision: number };
    expect(two).toMatchObject({ id: one.id, revision: 2 });
    const read = await readInvoice(invoice.referenceNumber);
    expect(read.attachments).toEqual([{ id: one.id, name: 'contract.pdf', revision: 2 }]);
    expect((await fetchAttachment(one.id)).equals(second)).toBe(true);
    expect((await fetchAttachment(one.id, '?revision=1')).equals(first)).toBe(true);
  });

  it('refuses bad uploads through the gateway: 400, 415, 413, and 404 for unknown or foreign invoices', async () => {
    const invoice = await createInvoice();
    expect((await upload(invoice.referenceNumber, randomBytes(10), 'ok.bin')).status).toBe(201);
    const path = `/v1/supplierInvoice/${invoice.referenceNumber}/Attachment`;
    const headers = await auth.headers({ company: A });

    const empty = new FormData();
    empty.append('file', new Blob([]), 'empty.bin');
    expect((await call(path, { method: 'POST', headers, body: empty })).status).toBe(400);
    const noFile = new FormData();
    noFile.append('comment', 'no file here');
    expect((await call(path, { method: 'POST', headers, body: noFile })).status).toBe(400);
    const two = new FormData();
    two.append('file', new Blob([randomBytes(10)]), 'a.bin');
    two.append('file', new Blob([randomBytes(10)]), 'b.bin');
    expect((await call(path, { method: 'POST', headers, body: two })).status).toBe(400);
    const json = await call(path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(415);
    expect(((await json.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10402');
    const big = new FormData();
    big.append('file', new Blob([randomBytes(8 * MIB + 1)]), 'big.bin');
    const tooLarge = await call(path, { method: 'POST', headers, body: big });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10401');

    const unknown = new FormData();
    unknown.append('file', new Blob([randomBytes(10)]), 'a.bin');
    expect((await call('/v1/supplierInvoice/999999/Attachment', { method: 'POST', headers, body: unknown })).status).toBe(404);

    // Only the one good upload is on the invoice.
    const read = await readInvoice(invoice.referenceNumber);
    expect(read.attachments.map((a) => a.name)).toEqual(['ok.bin']);
  });

  it('answers uploads refused before their body is read with the 4xx, never a reset, and keeps the connection usable', async () => {
    // The service refuses an upload to an unknown invoice as soon as the headers arrive, while the
    // client is still sending; through the gateway this used to surface as EPIPE/ECONNRESET.
    const headers = await auth.headers({ company: A });
    const outcomes: Record<string, number> = {};
    const sizes = [64 * 1024, 512 * 1024, 2 * MIB, 8 * MIB];
    for (let round = 0; round < 10; round++) {
      await Promise.all(
        sizes.flatMap((size) =>
          [0, 1].map(async (copy) => {
            const form = new FormData();
            form.append('file', new Blob([Buffer.alloc(size, 1)]), 'early.bin');
            let outcome: string;
            try {
              const response = await call(`/v1/supplierInvoice/9${round}${copy}${size}/Attachment`, { method: 'POST', headers, body: form });
              await response.arrayBuffer();
              outcome = String(response.status);
            } catch (error) {
              const cause = (error as { cause?: { code?: string } }).cause;
              outcome = `network error ${cause?.code ?? (error as Error).message}`;
            }
            outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
          }),
        ),
      );
    }
    expect(outcomes).toEqual({ '404': sizes.length * 2 * 10 });
  }, 120_000);

  it('never leaks across companies: B cannot upload to A’s invoice or read A’s attachment, and A’s ids are 404 for B', async () => {
    const invoice = await createInvoice(A);
    const uploaded = (await (await upload(invoice.referenceNumber, randomBytes(100), 'mine.pdf')).json()) as { id: string };
    const b = await auth.headers({ company: B });
    const form = new FormData();
    form.append('file', new Blob([randomBytes(10)]), 'theirs.pdf');
    expect((await call(`/v1/supplierInvoice/${invoice.referenceNumber}/Attachment`, { method: 'POST', headers: b, body: form })).status).toBe(404);
    expect((await call(`/v1/attachment/${uploaded.id}`, { headers: b })).status).toBe(404);
    expect((await call(`/v1/supplierInvoice/${invoice.referenceNumber}`, { headers: b })).status).toBe(404);
    const bInvoice = await createInvoice(B);
    const bFile = (await (await upload(bInvoice.referenceNumber, randomBytes(10), 'b.pdf', B)).json()) as { id: string };
    expect((await call(`/v1/attachment/${bFile.id}`, { headers: await auth.headers({ company: A }) })).status).toBe(404);
  });

  it('pages supplier invoices through the gateway with v1 metadata', async () => {
    const headers = await auth.headers({ company: A });
    const response = await call('/v1/supplierInvoice?pageSize=2&pageNumber=1', { headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Array<{ metadata: { totalCount: number; maxPageSize: number } }>;
    expect(body).toHaveLength(2);
    expect(body[0]!.metadata.maxPageSize).toBe(500);
    expect(body[0]!.metadata.totalCount).toBeGreaterThanOrEqual(5);
  });
});
