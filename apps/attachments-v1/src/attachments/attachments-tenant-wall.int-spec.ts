import { randomBytes } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describeTenantWallRules, whileTenantViewAdmitsNothing } from '@erp/testing';
import { ATTACHMENTS_WALL } from '../migrations/1795835600000-wall-by-tenant-views';
import { startAttachmentsTestApp, type AttachmentsTestApp } from '../testing/attachments-test-app';

const A = '1000001';
const B = '2000002';

/**
 * Defence in depth: the tenant views keep companies apart even where a query forgets
 * `company_id`. Each statement runs through the service's own DataSource in a company's scope,
 * exactly as a request handler's would (RELIABILITY.md "Defence in depth").
 */
describe('attachments-v1 tenant wall', () => {
  let t: AttachmentsTestApp;
  let db: DataSource;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startAttachmentsTestApp();
    db = t.service.app.get<DataSource>(getDataSourceToken());
    for (const company of [A, B]) {
      await t.addOwner(company, 'supplierInvoice', '000001');
      const form = new FormData();
      form.append('file', new Blob([randomBytes(32)]), `${company}.pdf`);
      const response = await t.http.request('/v1/supplierInvoice/000001/Attachment', {
        method: 'POST',
        headers: await t.auth.headers({ company }),
        body: form,
      });
      expect(response.status).toBe(201);
      ids[company] = ((await response.json()) as { id: string }).id;
    }
    // An attachment of B without revisions (the service never leaves one), for the probe to point a
    // revision at: there the wall answers, not the (attachment, revision) key B's own revision holds.
    await t.sql.query(
      `INSERT INTO attachments (id, company_id, owner_endpoint, owner_id, name, latest_revision, created_at, last_modified_at)
       VALUES (gen_random_uuid(), $1, 'supplierInvoice', '000001', 'empty.pdf', 0, now(), now())`,
      [B],
    );
    // Uploads in flight (rows exist only while a file streams in).
    await t.sql.query(
      `INSERT INTO pending_uploads (storage_key, company_id, started_at) VALUES ('probe-a', $1, now()), ('probe-b', $2, now())`,
      [A, B],
    );
  });

  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t?.close();
  });

  describeTenantWallRules({ db: () => db, tables: [...ATTACHMENTS_WALL.tables, ...ATTACHMENTS_WALL.children], own: A, other: B });

  it('background work (the orphan sweeper) still sees every company', async () => {
    expect(await db.query(`SELECT company_id FROM pending_uploads ORDER BY 1`)).toEqual([{ company_id: A }, { company_id: B }]);
  });

  it('runs request handlers behind the wall (a view that admits nothing hides the attachment)', async () => {
    const headers = await t.auth.headers({ company: A });
    // Each body is read to its end: an unread one keeps its connection busy, and closing the app
    // then waits for it (up to the idle-socket timeout).
    const statusOf = async (path: string) => {
      const response = await t.http.request(path, { headers });
      await response.arrayBuffer();
      return response.status;
    };
    expect(await statusOf(`/v1/attachment/${ids[A]}`)).toBe(200);
    await whileTenantViewAdmitsNothing(t.sql, 'attachments', async () => {
      expect(await statusOf(`/v1/attachment/${ids[A]}`)).toBe(404);
    });
    expect(await statusOf(`/v1/attachment/${ids[A]}`)).toBe(200);
  });
});
