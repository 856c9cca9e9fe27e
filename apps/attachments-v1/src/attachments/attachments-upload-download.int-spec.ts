import { createHash, randomBytes } from 'node:crypto';
import { multipartBody, pdfLikeBytes } from '../testing/multipart-body';
import { startAttachmentsTestApp, type AttachmentsTestApp, type StorageDriver } from '../testing/attachments-test-app';

const A = '1000001';
const MIB = 1024 * 1024;

interface Uploaded {
  id: string;
  name: string;
  revision: number;
  contentType: string;
  size: number;
  sha256: string;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// Every behaviour runs on both storage drivers: the filesystem (embedded default) and S3, against
// a real S3 wire-protocol server (s3rver) started for this file. Parts of 5 MiB make a 12 MiB file
// a three-part multipart upload.
describe.each<StorageDriver>(['filesystem', 's3'])('attachments-v1 upload and download on the %s driver', (driver) => {
  let t: AttachmentsTestApp;
  let headers: Record<string, string>;

  async function upload(path: string, bytes: Buffer, name: string, type = 'application/octet-stream'): Promise<Response> {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), name);
    return t.http.request(path, { method: 'POST', headers: { ...headers }, body: form });
  }

  async function uploadOk(objectId: string, bytes: Buffer, name: string, type?: string): Promise<Uploaded> {
    const response = await upload(`/v1/supplierInvoice/${objectId}/Attachment`, bytes, name, type);
    expect(response.status).toBe(201);
    return (await response.json()) as Uploaded;
  }

  async function download(id: string, accept?: string, query = ''): Promise<Response> {
    const { accept: _ignored, ...rest } = headers;
    return t.http.request(`/v1/attachment/${id}${query}`, { headers: accept === undefined ? rest : { ...rest, accept } });
  }

  beforeAll(async () => {
    t = await startAttachmentsTestApp(driver, { S3_PART_SIZE_BYTES: String(5 * MIB) });
    headers = await t.auth.headers({ company: A });
    await t.addOwner(A, 'supplierInvoice', '000001');
    await t.addOwner(A, 'customer', '10001');
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('uploads a PDF-like file: 201, Location, { id, name, revision, contentType, size, sha256 }', async () => {
    const bytes = pdfLikeBytes(50_000);
    const response = await upload('/v1/supplierInvoice/000001/Attachment', bytes, 'invoice.pdf', 'application/pdf');
    expect(response.status).toBe(201);
    const body = (await response.json()) as Uploaded;
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'invoice.pdf',
      revision: 1,
      contentType: 'application/pdf',
      size: bytes.length,
      sha256: sha256(bytes),
    });
    expect(response.headers.get('location')).toBe(`/v1/attachment/${body.id}`);
  });

  it('answers the bare Base64 by default, for */* and for text/plain; decoding gives the exact bytes', async () => {
    const bytes = pdfLikeBytes(70_001);
    const { id } = await uploadOk('000001', bytes, 'default.pdf');
    for (const accept of [undefined, '*/*', 'text/plain', 'text/*', 'application/json;q=0.5, text/plain']) {
      const response = await download(id, accept);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/plain; charset=us-ascii');
      const text = await response.text();
      expect(text).toMatch(/^[A-Za-z0-9+/]*={0,2}$/);
      expect(Number(response.headers.get('content-length'))).toBe(text.length);
      expect(Buffer.from(text, 'base64').equals(bytes)).toBe(true);
    }
  });

  it('answers { id, name, revision, contentType, size, content } for Accept: application/json', async () => {
    const bytes = randomBytes(100_000);
    const uploaded = await uploadOk('000001', bytes, 'random.bin');
    const response = await download(uploaded.id, 'application/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const body = JSON.parse(text) as Uploaded & { content: string };
    expect(body).toEqual({
      id: uploaded.id,
      name: 'random.bin',
      revision: 1,
      contentType: 'application/octet-stream',
      size: bytes.length,
      content: bytes.toString('base64'),
    });
  });

  it('answers the raw bytes with Content-Disposition for Accept: application/octet-stream', async () => {
    const bytes = Buffer.concat([Buffer.alloc(1000), randomBytes(1000), Buffer.alloc(1000)]);
    const { id } = await uploadOk('000001', bytes, 'zeros.bin');
    const response = await download(id, 'application/octet-stream');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="zeros.bin"; filename*=UTF-8''zeros.bin`);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it.each([1, 2, 3, 4, 5, 65_535, 65_536, 65_537, 196_609])(
    'round-trips %i bytes exactly through every representation (Base64 groups split across chunks)',
    async (size) => {
      const bytes = randomBytes(size);
      const { id } = await uploadOk('000001', bytes, `size-${size}.bin`);
      expect(Buffer.from(await (await download(id)).text(), 'base64').equals(bytes)).toBe(true);
      const json = (await (await download(id, 'application/json')).json()) as { content: string };
      expect(json.content).toBe(bytes.toString('base64'));
      expect(Buffer.from(await (await download(id, 'application/octet-stream')).arrayBuffer()).equals(bytes)).toBe(true);
    },
  );

  it('streams a 12 MiB file up and down unchanged (a multipart upload on S3)', async () => {
    const bytes = randomBytes(12 * MIB);
    const uploaded = await uploadOk('000001', bytes, 'large.bin');
    expect(uploaded.size).toBe(bytes.length);
    expect(uploaded.sha256).toBe(sha256(bytes));
    const text = await (await download(uploaded.id)).text();
    expect(sha256(Buffer.from(text, 'base64'))).toBe(uploaded.sha256);
    const raw = Buffer.from(await (await download(uploaded.id, 'application/octet-stream')).arrayBuffer());
    expect(sha256(raw)).toBe(uploaded.sha256);
  });

  it.each([
    ['Fakturå 2026 — «kopi».pdf', 'Fakturå 2026 — «kopi».pdf'],
    ['emoji 📎 file.bin', 'emoji 📎 file.bin'],
    ['semi;colon, comma & percent%.txt', 'semi;colon, comma & percent%.txt'],
    ['C:\\fakepath\\report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['  spaced.txt  ', 'spaced.txt'],
    ['.hidden', '.hidden'],
    ['no-extension', 'no-extension'],
  ])('keeps the unusual file name %j as %j and serves it back in Content-Disposition', async (sent, kept) => {
    const bytes = randomBytes(100);
    const uploaded = await uploadOk('000001', bytes, sent);
    expect(uploaded.name).toBe(kept);
    const response = await download(uploaded.id, 'application/octet-stream');
    const disposition = response.headers.get('content-disposition')!;
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1];
    expect(decodeURIComponent(encoded)).toBe(kept);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; /);
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('reads a name sent as filename*=UTF-8 (RFC 8187)', async () => {
    const { body, contentType } = multipartBody([{ name: 'file', filenameStar: 'Kvittering №5 ø.pdf', data: randomBytes(10) }]);
    const response = await t.http.request('/v1/supplierInvoice/000001/Attachment', {
      method: 'POST',
      headers: { ...headers, 'content-type': contentType },
      body,
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as Uploaded).name).toBe('Kvittering №5 ø.pdf');
  });

  it('makes a new revision for the same name on the same object; revision 1 stays readable with ?revision=1', async () => {
    const first = randomBytes(3000);
    const second = randomBytes(4000);
    const one = await uploadOk('000001', first, 'contract.pdf');
    const two = await uploadOk('000001', second, 'contract.pdf');
    expect(two).toMatchObject({ id: one.id, name: 'contract.pdf', revision: 2, size: 4000 });
    expect(Buffer.from(await (await download(one.id)).text(), 'base64').equals(second)).toBe(true);
    expect(Buffer.from(await (await download(one.id, undefined, '?revision=1')).text(), 'base64').equals(first)).toBe(true);
    expect(Buffer.from(await (await download(one.id, undefined, '?revision=2')).text(), 'base64').equals(second)).toBe(true);
    const json = (await (await download(one.id, 'application/json', '?revision=1')).json()) as Uploaded;
    expect(json).toMatchObject({ revision: 1, size: 3000 });
    expect((await download(one.id, undefined, '?revision=3')).status).toBe(404);
    for (const bad of ['0', '-1', 'one', '1.5']) expect((await download(one.id, undefined, `?revision=${bad}`)).status).toBe(400);
  });

  it('numbers concurrent uploads of one name 1, 2, 3... without gaps or duplicates', async () => {
    const files = Array.from({ length: 5 }, () => randomBytes(20_000));
    const uploaded = await Promise.all(files.map((bytes) => uploadOk('000001', bytes, 'concurrent.bin')));
    expect(new Set(uploaded.map((u) => u.id)).size).toBe(1);
    expect(uploaded.map((u) => u.revision).sort()).toEqual([1, 2, 3, 4, 5]);
    for (const u of uploaded) {
      const bytes = Buffer.from(await (await download(u.id, undefined, `?revision=${u.revision}`)).text(), 'base64');
      expect(sha256(bytes)).toBe(u.sha256);
    }
  });

  it('treats the same name on another object, or another name, as another attachment', async () => {
    await t.addOwner(A, 'supplierInvoice', '000002');
    const here = await uploadOk('000001', randomBytes(10), 'shared-name.txt');
    const there = await uploadOk('000002', randomBytes(10), 'shared-name.txt');
    const other = await uploadOk('000001', randomBytes(10), 'Shared-Name.txt');
    expect(new Set([here.id, there.id, other.id]).size).toBe(3);
    expect([here.revision, there.revision, other.revision]).toEqual([1, 1, 1]);
  });

  it('attaches files to customers too', async () => {
    const response = await upload('/v1/customer/10001/Attachment', randomBytes(10), 'customer.txt');
    expect(response.status).toBe(201);
  });

  it('answers 404 for an unknown attachment id, a malformed id and an unknown revision', async () => {
    expect((await download('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await download('not-a-uuid')).status).toBe(404);
    expect((await download('00000000-0000-4000-8000-000000000000', undefined, '?foo=1')).status).toBe(400);
  });

  it('answers 406 when the client accepts none of the three representations', async () => {
    const { id } = await uploadOk('000001', randomBytes(10), 'not-acceptable.bin');
    const response = await download(id, 'image/png');
    expect(response.status).toBe(406);
    expect(((await response.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10204');
  });
});
