import { randomBytes } from 'node:crypto';
import { startAttachmentsTestApp, type AttachmentsTestApp } from '../testing/attachments-test-app';

const A = '1000001';
const B = '2000002';
let t: AttachmentsTestApp;

async function uploadAs(headers: Record<string, string>, path: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append('file', new Blob([randomBytes(32)]), name);
  return t.http.request(path, { method: 'POST', headers, body: form });
}

describe('attachments-v1 authentication and tenancy', () => {
  let a: Record<string, string>;
  let b: Record<string, string>;
  let idOfB: string;

  beforeAll(async () => {
    t = await startAttachmentsTestApp();
    a = await t.auth.headers({ company: A });
    b = await t.auth.headers({ company: B });
    await t.addOwner(A, 'supplierInvoice', '000001');
    await t.addOwner(B, 'supplierInvoice', '000001');
    const response = await uploadAs(b, '/v1/supplierInvoice/000001/Attachment', 'secret.pdf');
    expect(response.status).toBe(201);
    idOfB = ((await response.json()) as { id: string }).id;
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('answers 404 (never 403) for another company’s attachment, in every representation and revision', async () => {
    for (const accept of ['text/plain', 'application/json', 'application/octet-stream', '*/*']) {
      const response = await t.http.request(`/v1/attachment/${idOfB}`, { headers: { ...a, accept } });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { ExceptionFaultCode: string }).ExceptionFaultCode).toBe('10201');
    }
    expect((await t.http.request(`/v1/attachment/${idOfB}?revision=1`, { headers: a })).status).toBe(404);
    expect((await t.http.request(`/v1/attachment/${idOfB.toUpperCase()}`, { headers: a })).status).toBe(404);
    expect((await t.http.request(`/v1/attachment/${idOfB}`, { headers: b })).status).toBe(200);
  });

  it('keeps the same object number of two companies apart: same name, separate attachments', async () => {
    const response = await uploadAs(a, '/v1/supplierInvoice/000001/Attachment', 'secret.pdf');
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: string; revision: number };
    expect(body.id).not.toBe(idOfB);
    expect(body.revision).toBe(1);
  });

  it('refuses a missing or bad token with 401, and missing ipp headers with 400', async () => {
    const path = '/v1/supplierInvoice/000001/Attachment';
    expect((await t.http.request(`/v1/attachment/${idOfB}`)).status).toBe(401);
    expect((await uploadAs({ 'ipp-company-id': A, 'ipp-application-type': 'x' }, path, 'a.bin')).status).toBe(401);
    const noAppType = await t.auth.headers({ company: A, applicationType: null });
    expect((await uploadAs(noAppType, path, 'a.bin')).status).toBe(400);
    expect((await t.http.request(`/v1/attachment/${idOfB}`, { headers: noAppType })).status).toBe(400);
  });

  it('needs erp:write to upload and erp:read to download', async () => {
    const readOnly = await t.auth.headers({ company: B, scope: 'erp:read' });
    expect((await uploadAs(readOnly, '/v1/supplierInvoice/000001/Attachment', 'a.bin')).status).toBe(403);
    expect((await t.http.request(`/v1/attachment/${idOfB}`, { headers: readOnly })).status).toBe(200);
    const writeOnly = await t.auth.headers({ company: B, scope: 'erp:write' });
    expect((await t.http.request(`/v1/attachment/${idOfB}`, { headers: writeOnly })).status).toBe(403);
  });

  it('refuses a company the token does not grant with 403', async () => {
    const headers = { ...a, 'ipp-company-id': B };
    expect((await t.http.request(`/v1/attachment/${idOfB}`, { headers })).status).toBe(403);
  });
});
