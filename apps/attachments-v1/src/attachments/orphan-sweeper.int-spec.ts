import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { waitUntil } from '@erp/testing';
import { startAttachmentsTestApp, type AttachmentsTestApp, type StorageDriver } from '../testing/attachments-test-app';

const A = '1000001';

/** What a crash between "bytes stored" and "metadata committed" leaves: a pending row and an object. */
async function simulateCrashedUploadIn(t: AttachmentsTestApp, startedMinutesAgo: number): Promise<string> {
  const id = randomUUID();
  const key = `${A}/${id.slice(0, 2)}/${id}`;
  await t.sql.query(`INSERT INTO pending_uploads (storage_key, company_id, started_at) VALUES ($1, $2, now() - make_interval(mins => $3))`, [
    key,
    A,
    startedMinutesAgo,
  ]);
  await t.storage.put(key, Readable.from([randomBytes(1000)]));
  return key;
}

describe('the orphan sweeper on its timer', () => {
  it('sweeps by itself every ORPHAN_SWEEP_INTERVAL_SECONDS, leaving recent uploads alone', async () => {
    const t = await startAttachmentsTestApp('filesystem', { ORPHAN_MAX_AGE_MINUTES: '30', ORPHAN_SWEEP_INTERVAL_SECONDS: '1' });
    try {
      const old = await simulateCrashedUploadIn(t, 45);
      const recent = await simulateCrashedUploadIn(t, 5);
      await waitUntil('the timer to sweep the old upload', async () => !(await t.storedKeys()).includes(old), 10_000, 100);
      expect(await t.storedKeys()).toEqual([recent]);
    } finally {
      await t.close();
    }
  });
});

describe.each<StorageDriver>(['filesystem', 's3'])('orphaned upload bytes on the %s driver', (driver) => {
  let t: AttachmentsTestApp;
  let headers: Record<string, string>;

  const simulateCrashedUpload = (startedMinutesAgo: number) => simulateCrashedUploadIn(t, startedMinutesAgo);

  beforeAll(async () => {
    t = await startAttachmentsTestApp(driver, { ORPHAN_MAX_AGE_MINUTES: '30' });
    headers = await t.auth.headers({ company: A });
    await t.addOwner(A, 'supplierInvoice', '000001');
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('deletes the bytes of uploads that never committed once they are older than the maximum age', async () => {
    const form = new FormData();
    form.append('file', new Blob([randomBytes(500)]), 'visible.pdf');
    const visible = await t.http.request('/v1/supplierInvoice/000001/Attachment', { method: 'POST', headers, body: form });
    expect(visible.status).toBe(201);
    const committedKeys = await t.storedKeys();

    const old = await simulateCrashedUpload(45);
    const recent = await simulateCrashedUpload(5);
    expect(await t.storedKeys()).toEqual([...committedKeys, old, recent].sort());

    // Never visible: no metadata names them.
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM attachment_revisions WHERE storage_key = ANY($1)`, [[old, recent]]);
    expect(rows[0]).toEqual({ n: 0 });

    expect(await t.sweeper.sweep()).toBe(1);
    expect(await t.storedKeys()).toEqual([...committedKeys, recent].sort());
    expect((await t.sql.query(`SELECT storage_key FROM pending_uploads`)).rows).toEqual([{ storage_key: recent }]);

    // Once old enough, the recent one goes too; committed attachments are never touched.
    expect(await t.sweeper.sweep(0)).toBe(1);
    expect(await t.storedKeys()).toEqual(committedKeys);
    const id = ((await visible.json()) as { id: string }).id;
    const read = await t.http.request(`/v1/attachment/${id}`, { headers: { ...headers, accept: 'application/octet-stream' } });
    expect(read.status).toBe(200);
  });

  it('leaves no pending row behind for committed or rejected uploads', async () => {
    const ok = new FormData();
    ok.append('file', new Blob([randomBytes(10)]), 'ok.bin');
    expect((await t.http.request('/v1/supplierInvoice/000001/Attachment', { method: 'POST', headers, body: ok })).status).toBe(201);
    const empty = new FormData();
    empty.append('file', new Blob([]), 'empty.bin');
    expect((await t.http.request('/v1/supplierInvoice/000001/Attachment', { method: 'POST', headers, body: empty })).status).toBe(400);
    expect((await t.sql.query(`SELECT * FROM pending_uploads`)).rows).toEqual([]);
  });

  it('refuses to commit an upload whose bytes the sweeper deleted before its metadata (503), and shows nothing', async () => {
    const keysBefore = await t.storedKeys();
    const put = t.storage.put.bind(t.storage);
    // The sweeper gets to the upload between its bytes and its metadata, as it would to one slower than the maximum age.
    const slowUpload = jest.spyOn(t.storage, 'put').mockImplementationOnce(async (key, body, options) => {
      await put(key, body, options);
      expect(await t.sweeper.sweep(0)).toBe(1);
    });
    const form = new FormData();
    form.append('file', new Blob([randomBytes(100)]), 'swept.bin');
    // Straight to the service, not through t.http: this 503 is the answer under test, not a server fault.
    const response = await fetch(`${t.service.url}/v1/supplierInvoice/000001/Attachment`, { method: 'POST', headers, body: form });
    slowUpload.mockRestore();

    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect((await t.sql.query(`SELECT id FROM attachments WHERE name = 'swept.bin'`)).rows).toEqual([]);
    expect((await t.sql.query(`SELECT * FROM pending_uploads`)).rows).toEqual([]);
    expect(await t.storedKeys()).toEqual(keysBefore);
  });
});
