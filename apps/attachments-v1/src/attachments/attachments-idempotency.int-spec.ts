import { describeIdempotentWriteRules } from '@erp/testing';
import { type AttachmentsTestApp, startAttachmentsTestApp } from '../testing/attachments-test-app';

const A = '1000001';
const B = '2000002';
let t: AttachmentsTestApp;
let made = 0;

/** Attachments, revisions, ATTACHMENT_CREATED outbox rows of a company, and the objects stored. */
async function effects(company: string): Promise<Record<string, number>> {
  const { rows } = await t.sql.query<{ attachments: number; revisions: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM attachments WHERE company_id = $1) AS attachments,
            (SELECT count(*)::int FROM attachment_revisions r JOIN attachments a ON a.id = r.attachment_id WHERE a.company_id = $1) AS revisions,
            (SELECT count(*)::int FROM outbox WHERE payload->>'companyId' = $1) AS events`,
    [company],
  );
  // A retried upload streams its bytes again; they are discarded when its stored answer is sent.
  return { ...rows[0]!, storedObjects: (await t.storedKeys()).filter((key) => key.startsWith(`${company}/`)).length };
}

/** A streamed upload: its body in the fingerprint is the digest of the file it streamed. */
describe('attachments-v1 keyed uploads', () => {
  beforeAll(async () => {
    t = await startAttachmentsTestApp();
    for (const company of [A, B]) await t.addOwner(company, 'supplierInvoice', '000001');
  });
  afterAll(async () => {
    await t?.close();
  });

  describeIdempotentWriteRules('POST /v1/{endpoint}/{objectId}/Attachment', {
    url: () => t.service.url,
    auth: () => t.auth,
    sql: () => t.sql,
    company: A,
    otherCompany: B,
    operation: 'POST /v1/:endpoint/:objectId/Attachment',
    streamedBody: true,
    effects,
    request: (variant) => {
      const form = new FormData();
      form.append('file', new Blob([`${variant} bytes ${++made}`], { type: 'application/pdf' }), `keyed-${made}.pdf`);
      return { method: 'POST', path: '/v1/supplierInvoice/000001/Attachment', body: form };
    },
  });

  it('keeps no answer given before the file was read: after a 404 for an owner not known yet, the same key uploads', async () => {
    const key = `owner-later-${++made}`;
    const upload = async () => {
      const form = new FormData();
      form.append('file', new Blob(['late owner'], { type: 'application/pdf' }), 'late.pdf');
      const headers = { ...(await t.auth.headers({ company: A })), 'idempotency-key': key };
      const response = await fetch(`${t.service.url}/v1/supplierInvoice/000777/Attachment`, { method: 'POST', headers, body: form });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed') };
    };
    expect(await upload()).toEqual({ status: 404, replayed: null });
    await t.addOwner(A, 'supplierInvoice', '000777');
    expect(await upload()).toEqual({ status: 201, replayed: null });
    expect(await upload()).toEqual({ status: 201, replayed: 'true' });
  });
});
