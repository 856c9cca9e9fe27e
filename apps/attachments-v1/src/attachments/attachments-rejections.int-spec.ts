import { randomBytes } from 'node:crypto';
import { multipartBody, type RawPart } from '../testing/multipart-body';
import { startAttachmentsTestApp, type AttachmentsTestApp, type StorageDriver } from '../testing/attachments-test-app';

const A = '1000001';
const B = '2000002';
const LIMIT = 1024 * 1024;
const PATH = '/v1/supplierInvoice/000001/Attachment';

describe.each<StorageDriver>(['filesystem', 's3'])('attachments-v1 rejected uploads on the %s driver', (driver) => {
  let t: AttachmentsTestApp;
  let headers: Record<string, string>;

  async function counts(): Promise<{ attachments: number; revisions: number; pending: number; events: number; keys: string[] }> {
    const { rows } = await t.sql.query<{ attachments: number; revisions: number; pending: number; events: number }>(
      `SELECT (SELECT count(*)::int FROM attachments) AS attachments,
              (SELECT count(*)::int FROM attachment_revisions) AS revisions,
              (SELECT count(*)::int FROM pending_uploads) AS pending,
              (SELECT count(*)::int FROM outbox) AS events`,
    );
    return { ...rows[0], keys: await t.storedKeys() };
  }

  async function sendRaw(parts: RawPart[], path = PATH): Promise<Response> {
    const { body, contentType } = multipartBody(parts);
    return t.http.request(path, { method: 'POST', headers: { ...headers, 'content-type': contentType }, body });
  }

  async function expectRejected(response: Response, status: number, faultCode: string, message?: RegExp): Promise<void> {
    expect(response.status).toBe(status);
    const body = (await response.json()) as { ExceptionFaultCode: string; ExceptionMessage: string };
    expect(body.ExceptionFaultCode).toBe(faultCode);
    if (message) expect(body.ExceptionMessage).toMatch(message);
  }

  let before: Awaited<ReturnType<typeof counts>>;

  beforeAll(async () => {
    t = await startAttachmentsTestApp(driver, { ATTACHMENT_MAX_BYTES: String(LIMIT) });
    headers = await t.auth.headers({ company: A });
    await t.addOwner(A, 'supplierInvoice', '000001');
    await t.addOwner(B, 'supplierInvoice', 'B-1');
    // One attachment that must survive every rejection below.
    const kept = await sendRaw([{ name: 'file', filename: 'kept.bin', data: randomBytes(10) }]);
    expect(kept.status).toBe(201);
  });
  beforeEach(async () => {
    before = await counts();
  });
  afterEach(async () => {
    // Nothing is stored on any rejection: no metadata, no pending upload, no event, no bytes.
    expect(await counts()).toEqual(before);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('refuses a body without a part named file with 400', async () => {
    await expectRejected(await sendRaw([{ name: 'comment', data: 'hello' }]), 400, '10001', /"file"/);
    await expectRejected(await sendRaw([]), 400, '10001', /"file"/);
  });

  it('refuses a part named file that is a plain field (no file name) with 400', async () => {
    await expectRejected(await sendRaw([{ name: 'file', data: 'just text' }]), 400, '10001', /must be a file/);
  });

  it('refuses a file part with an empty or unusable file name with 400', async () => {
    await expectRejected(await sendRaw([{ name: 'file', filename: '', data: randomBytes(10) }]), 400, '10001', /file name/);
    await expectRejected(await sendRaw([{ name: 'file', filename: '   ', data: randomBytes(10) }]), 400, '10001', /file name/);
    await expectRejected(await sendRaw([{ name: 'file', filename: '..', data: randomBytes(10) }]), 400, '10001', /file name/);
    await expectRejected(
      await sendRaw([{ name: 'file', filename: `${'x'.repeat(256)}.pdf`, data: randomBytes(10) }]),
      400,
      '10001',
      /at most 255/,
    );
  });

  it('refuses two files in one request with 400, deleting the first one’s bytes', async () => {
    const response = await sendRaw([
      { name: 'file', filename: 'one.bin', data: randomBytes(5000) },
      { name: 'file', filename: 'two.bin', data: randomBytes(5000) },
    ]);
    await expectRejected(response, 400, '10001', /one file per request/);
    const otherName = await sendRaw([
      { name: 'file', filename: 'one.bin', data: randomBytes(5000) },
      { name: 'attachment', filename: 'two.bin', data: randomBytes(5000) },
    ]);
    await expectRejected(otherName, 400, '10001');
  });

  it('refuses a file part with another name with 400', async () => {
    await expectRejected(await sendRaw([{ name: 'upload', filename: 'a.bin', data: randomBytes(10) }]), 400, '10001', /name it "file"/);
  });

  it('refuses an empty file with 400', async () => {
    await expectRejected(await sendRaw([{ name: 'file', filename: 'empty.txt', data: Buffer.alloc(0) }]), 400, '10001', /empty/);
  });

  it('refuses what is not multipart with 415', async () => {
    const json = await t.http.request(PATH, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ file: 'aGVsbG8=' }),
    });
    await expectRejected(json, 415, '10402');
    const octets = await t.http.request(PATH, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: randomBytes(100),
    });
    await expectRejected(octets, 415, '10402');
    const text = await t.http.request(PATH, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'hi' });
    await expectRejected(text, 415, '10402');
    await expectRejected(await t.http.request(PATH, { method: 'POST', headers }), 415, '10402');
  });

  it('refuses a file over the size limit with 413 while it streams, keeping nothing', async () => {
    await expectRejected(
      await sendRaw([{ name: 'file', filename: 'big.bin', data: randomBytes(LIMIT + 1) }]),
      413,
      '10401',
      new RegExp(`${LIMIT} bytes`),
    );
    await expectRejected(await sendRaw([{ name: 'file', filename: 'bigger.bin', data: randomBytes(3 * LIMIT) }]), 413, '10401');
  });

  it('accepts a file of exactly the limit', async () => {
    const response = await sendRaw([{ name: 'file', filename: 'exact.bin', data: randomBytes(LIMIT) }]);
    expect(response.status).toBe(201);
    before.attachments += 1;
    before.revisions += 1;
    before.events += 1;
    before.keys = await t.storedKeys();
    expect(before.keys).toHaveLength(2);
  });

  it('refuses uploads to an unknown object, or another company’s, with 404', async () => {
    const data = randomBytes(10);
    await expectRejected(
      await sendRaw([{ name: 'file', filename: 'a.bin', data }], '/v1/supplierInvoice/999999/Attachment'),
      404,
      '10201',
    );
    await expectRejected(await sendRaw([{ name: 'file', filename: 'a.bin', data }], '/v1/supplierInvoice/B-1/Attachment'), 404, '10201');
    await expectRejected(await sendRaw([{ name: 'file', filename: 'a.bin', data }], '/v1/customer/000001/Attachment'), 404, '10201');
  });

  it('refuses an endpoint that cannot own attachments, and malformed object ids, with 404', async () => {
    const data = randomBytes(10);
    for (const path of ['/v1/salesOrder/000001/Attachment', '/v1/supplierinvoice/000001/Attachment', '/v1/supplierInvoice/%20x/Attachment']) {
      const response = await sendRaw([{ name: 'file', filename: 'a.bin', data }], path);
      expect(response.status).toBe(404);
    }
  });

  it('refuses a malformed multipart body with 400', async () => {
    const broken = await t.http.request(PATH, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\nunterminated',
    });
    await expectRejected(broken, 400, '10003');
    const noBoundary = await t.http.request(PATH, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      body: 'whatever',
    });
    expect(noBoundary.status).toBe(400);
  });

  it('answers the next request on the same connection normally after a rejection', async () => {
    await expectRejected(await sendRaw([{ name: 'file', filename: 'big.bin', data: randomBytes(2 * LIMIT) }]), 413, '10401');
    const ok = await sendRaw([{ name: 'file', filename: 'after.bin', data: randomBytes(10) }]);
    expect(ok.status).toBe(201);
    before.attachments += 1;
    before.revisions += 1;
    before.events += 1;
    before.keys = await t.storedKeys();
  });
});
