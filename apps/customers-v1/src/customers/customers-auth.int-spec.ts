import { TestAuth } from '@erp/testing';
import { insertCustomers, startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
const B = '2000002';
let t: CustomersTestApp;

async function expectV1Error(response: Response, status: number, faultCode: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  const body = (await response.json()) as Record<string, string>;
  expect(Object.keys(body).sort()).toEqual([
    'ExceptionDetails',
    'ExceptionFaultCode',
    'ExceptionMessage',
    'ExceptionMessageID',
    'ExceptionType',
  ]);
  expect(body.ExceptionFaultCode).toBe(faultCode);
}

describe('customers-v1 authentication and tenancy', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
    await insertCustomers(t.sql, A, 3, { prefix: 'A' });
    await insertCustomers(t.sql, B, 4, { prefix: 'B' });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('answers 401 with WWW-Authenticate when the Authorization header is missing or malformed', async () => {
    for (const authorization of [undefined, 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer not-a-jwt', 'bearer x.y.z']) {
      const headers: Record<string, string> = { 'ipp-company-id': A, 'ipp-application-type': 'tests' };
      if (authorization) headers.authorization = authorization;
      const response = await t.http.request('/v1/customer', { headers });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectV1Error(response, 401, '10101');
    }
  });

  it('answers 401 for an expired token, a not-yet-valid token, a foreign key, alg none, HMAC confusion, wrong audience and wrong issuer', async () => {
    const tokens = [
      await t.auth.token({ companies: [A], expiresInSeconds: -60 }),
      await t.auth.token({ companies: [A], notBeforeSeconds: 3600 }),
      await TestAuth.foreignToken([A]),
      TestAuth.unsignedToken([A]),
      await t.auth.hmacConfusionToken([A]),
      await t.auth.token({ companies: [A], audience: 'another-api' }),
      await t.auth.token({ companies: [A], issuer: 'someone-else' }),
    ];
    for (const token of tokens) {
      const response = await t.http.request('/v1/customer', {
        headers: { authorization: `Bearer ${token}`, 'ipp-company-id': A, 'ipp-application-type': 'tests' },
      });
      await expectV1Error(response, 401, '10101');
    }
  });

  it('answers 400 when ipp-company-id is missing and the token grants several companies', async () => {
    const headers = await t.auth.headers({ companies: [A, B], company: null });
    await expectV1Error(await t.http.request('/v1/customer', { headers }), 400, '10002');
  });

  it('uses the only granted company when ipp-company-id is omitted', async () => {
    const headers = await t.auth.headers({ companies: [A], company: null });
    const response = await t.http.request('/v1/customer', { headers });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Array<{ number: string }>).map((c) => c.number)).toEqual(['A00001', 'A00002', 'A00003']);
  });

  it('answers 400 for a missing, empty, over-long or unprintable ipp-application-type', async () => {
    for (const applicationType of [null, '', ' ', 'x'.repeat(101), 'app\tname', 'caf\u00e9']) {
      const headers = await t.auth.headers({ company: A, applicationType: applicationType === null ? null : 'placeholder' });
      if (applicationType !== null) headers['ipp-application-type'] = applicationType;
      const response = await t.http.request('/v1/customer', { headers });
      await expectV1Error(response, 400, '10002');
    }
  });

  it('answers 400 for a malformed ipp-company-id', async () => {
    const headers = await t.auth.headers({ companies: [A], company: A });
    headers['ipp-company-id'] = "1' OR '1'='1";
    await expectV1Error(await t.http.request('/v1/customer', { headers }), 400, '10002');
  });

  it('answers 403 for a company the token does not grant', async () => {
    const headers = await t.auth.headers({ companies: [A], company: A });
    headers['ipp-company-id'] = B;
    await expectV1Error(await t.http.request('/v1/customer', { headers }), 403, '10102');
  });

  it('answers 403 when the scope is missing: erp:read for reads, erp:write for writes', async () => {
    const writeOnly = await t.auth.headers({ company: A, scope: 'erp:write' });
    await expectV1Error(await t.http.request('/v1/customer', { headers: writeOnly }), 403, '10102');
    const readOnly = await t.auth.headers({ company: A, scope: 'erp:read' });
    const response = await t.http.request('/v1/customer', {
      method: 'POST',
      headers: { ...readOnly, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Not allowed' }),
    });
    await expectV1Error(response, 403, '10102');
    const [{ count }] = (await t.sql.query(`SELECT count(*)::int AS count FROM customers WHERE name = 'Not allowed'`)).rows;
    expect(count).toBe(0);
  });

  it('never lists another company’s customers, not even through filters', async () => {
    const headers = await t.auth.headers({ company: A });
    const all = (await (await t.http.request('/v1/customer', { headers })).json()) as Array<{ number: string; metadata: { totalCount: number } }>;
    expect(all.map((c) => c.number)).toEqual(['A00001', 'A00002', 'A00003']);
    expect(all[0].metadata.totalCount).toBe(3);
    const byName = (await (await t.http.request('/v1/customer?name=Customer', { headers })).json()) as unknown[];
    expect(byName).toHaveLength(3);
  });

  it('answers 404 (not 403) for another company’s customer on GET and PUT, and changes nothing', async () => {
    const headers = await t.auth.headers({ company: A });
    await expectV1Error(await t.http.request('/v1/customer/B00001', { headers }), 404, '10201');
    const before = (await t.sql.query(`SELECT name, version FROM customers WHERE company_id = $1 AND number = 'B00001'`, [B])).rows[0];
    const put = await t.http.request('/v1/customer/B00001', {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Hijacked' }),
    });
    await expectV1Error(put, 404, '10201');
    const after = (await t.sql.query(`SELECT name, version FROM customers WHERE company_id = $1 AND number = 'B00001'`, [B])).rows[0];
    expect(after).toEqual(before);
  });

  it('gives the same 404 for a customer that exists elsewhere as for one that exists nowhere', async () => {
    const headers = await t.auth.headers({ company: A });
    const foreign = await t.http.request('/v1/customer/B00002', { headers });
    const missing = await t.http.request('/v1/customer/Z99999', { headers });
    const strip = (b: Record<string, string>) => ({ ...b, ExceptionMessageID: '', ExceptionMessage: b.ExceptionMessage.replace(/B00002|Z99999/, 'N') });
    expect(foreign.status).toBe(missing.status);
    expect(strip((await foreign.json()) as Record<string, string>)).toEqual(strip((await missing.json()) as Record<string, string>));
  });

  it('serves health without a token', async () => {
    const live = await t.http.request('/health/live');
    expect(live.status).toBe(200);
    const ready = await t.http.request('/health/ready');
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { status: string }).status).toBe('ok');
  });
});
