import { TestAuth } from '@erp/testing';
import { insertCustomerSnapshots, insertOrders, orderRows, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
const B = '2000002';
let t: SalesOrdersTestApp;

async function expectProblem(response: Response, status: number, type: string): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.headers.get('x-request-id')).toBeTruthy();
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, type });
  expect(JSON.stringify(body)).not.toMatch(/sales_orders|SELECT|\bat \w+ \(/);
  return body;
}

describe('sales-orders-v3 authentication and tenancy', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('auth');
    await insertCustomerSnapshots(t, A, [{ id: '10001' }]);
    await insertCustomerSnapshots(t, B, [{ id: '10001', name: 'B customer' }]);
    await insertOrders(t.sql, A, 3, { linesPerOrder: 2, customerName: 'Shared Name' });
    await insertOrders(t.sql, B, 4, { linesPerOrder: 2, customerName: 'Shared Name' });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('answers 401 with WWW-Authenticate when the token is missing, malformed, expired, foreign, unsigned or for another audience', async () => {
    const tokens = [
      undefined,
      'Basic dXNlcjpwYXNz',
      'Bearer not-a-jwt',
      `Bearer ${await t.auth.token({ companies: [A], expiresInSeconds: -60 })}`,
      `Bearer ${await TestAuth.foreignToken([A])}`,
      `Bearer ${TestAuth.unsignedToken([A])}`,
      `Bearer ${await t.auth.hmacConfusionToken([A])}`,
      `Bearer ${await t.auth.token({ companies: [A], audience: 'another-api' })}`,
    ];
    for (const authorization of tokens) {
      const headers: Record<string, string> = { 'ipp-company-id': A };
      if (authorization) headers.authorization = authorization;
      const response = await t.http.request('/api/v3/SalesOrders', { headers });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectProblem(response, 401, 'urn:erp:problem:unauthorized');
    }
  });

  it('does not require ipp-application-type on v3', async () => {
    const headers = await t.auth.headers({ company: A, applicationType: null });
    expect((await t.http.request('/api/v3/SalesOrders', { headers })).status).toBe(200);
  });

  it('answers 400 when ipp-company-id is missing for a multi-company token or malformed', async () => {
    const several = await t.auth.headers({ companies: [A, B], company: null });
    await expectProblem(await t.http.request('/api/v3/SalesOrders', { headers: several }), 400, 'urn:erp:problem:invalid-header');
    const malformed = await t.auth.headers({ company: A });
    malformed['ipp-company-id'] = "1' OR '1'='1";
    await expectProblem(await t.http.request('/api/v3/SalesOrders', { headers: malformed }), 400, 'urn:erp:problem:invalid-header');
  });

  it('answers 403 for a company the token does not grant, and for a missing scope (erp:read reads, erp:write writes)', async () => {
    const other = await t.auth.headers({ companies: [A], company: A });
    other['ipp-company-id'] = B;
    await expectProblem(await t.http.request('/api/v3/SalesOrders', { headers: other }), 403, 'urn:erp:problem:forbidden');
    const writeOnly = await t.auth.headers({ company: A, scope: 'erp:write' });
    await expectProblem(await t.http.request('/api/v3/SalesOrders/SO/000001', { headers: writeOnly }), 403, 'urn:erp:problem:forbidden');
    const readOnly = { ...(await t.auth.headers({ company: A, scope: 'erp:read' })), 'content-type': 'application/json', 'if-match': '*' };
    const before = await orderRows(t.sql, A, 'SO', '000001');
    for (const [method, path, body] of [
      ['POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001' } }],
      ['PATCH', '/api/v3/SalesOrders/SO/000001', { note: 'x' }],
      ['DELETE', '/api/v3/SalesOrders/SO/000001', undefined],
    ] as const) {
      const headers: Record<string, string> = { ...readOnly };
      if (!body) delete headers['content-type'];
      const response = await t.http.request(path, { method, headers, body: body && JSON.stringify(body) });
      await expectProblem(response, 403, 'urn:erp:problem:forbidden');
    }
    expect(await orderRows(t.sql, A, 'SO', '000001')).toEqual(before);
  });

  it('never lists another company’s orders, not even through filters, expand or counts', async () => {
    const headers = await t.headers(A);
    for (const path of [
      '/api/v3/SalesOrders',
      '/api/v3/SalesOrders/SO',
      '/api/v3/SalesOrders?filter=shared',
      '/api/v3/SalesOrders?customerId=10001&expand=all',
      '/api/v3/SalesOrders?orderBy=orderId%20desc',
    ]) {
      const page = (await (await t.http.request(path, { headers })).json()) as { value: Array<{ orderId: string }>; totalCount: number };
      expect(page.totalCount).toBe(3);
      expect(page.value.map((o) => o.orderId)).toEqual(
        path.includes('desc') ? ['000003', '000002', '000001'] : ['000001', '000002', '000003'],
      );
    }
  });

  it('answers 404 (never 403) for another company’s order on every method, and changes nothing', async () => {
    const headers = await t.headers(A);
    const before = await orderRows(t.sql, B, 'SO', '000004');
    const foreign = '/api/v3/SalesOrders/SO/000004';
    const attempts: Array<[string, string, unknown]> = [
      ['GET', foreign, undefined],
      ['GET', `${foreign}?expand=all`, undefined],
      ['GET', `${foreign}/lines`, undefined],
      ['GET', `${foreign}/lines/1`, undefined],
      ['PATCH', foreign, { note: 'hijacked' }],
      ['PATCH', foreign, { lines: [{ operation: 'delete', lineId: 1 }] }],
      ['DELETE', foreign, undefined],
    ];
    for (const [method, path, body] of attempts) {
      const h: Record<string, string> = { ...headers, 'if-match': '*' };
      if (!body) delete h['content-type'];
      const response = await t.http.request(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
      await expectProblem(response, 404, 'urn:erp:problem:not-found');
    }
    expect(await orderRows(t.sql, B, 'SO', '000004')).toEqual(before);
  });

  it('gives the same 404 for an order that exists elsewhere as for one that exists nowhere', async () => {
    const headers = await t.headers(A);
    const strip = (b: Record<string, unknown>) => ({ ...b, detail: String(b.detail).replace(/0000\d\d/, 'N'), instance: '' });
    const foreign = (await (await t.http.request('/api/v3/SalesOrders/SO/000004', { headers })).json()) as Record<string, unknown>;
    const missing = (await (await t.http.request('/api/v3/SalesOrders/SO/000099', { headers })).json()) as Record<string, unknown>;
    expect(strip(foreign)).toEqual(strip(missing));
  });

  it('numbers orders per company: each company has its own sequence', async () => {
    await insertCustomerSnapshots(t, '5000005', [{ id: '10001' }]);
    const headers = await t.headers('5000005');
    const response = await t.http.request('/api/v3/SalesOrders', {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'SO', customer: { id: '10001' } }),
    });
    expect(((await response.json()) as { orderId: string }).orderId).toBe('000001');
  });

  it('answers unknown paths and methods in problem+json', async () => {
    const headers = await t.headers(A);
    await expectProblem(await t.http.request('/api/v3/SalesOrders/SO/000001/no-such-view', { headers }), 404, 'urn:erp:problem:route-not-found');
    const put = await t.http.request('/api/v3/SalesOrders/SO/000001', { method: 'PUT', headers, body: '{}' });
    expect([404, 405]).toContain(put.status);
    expect(put.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('serves health without a token', async () => {
    expect((await t.http.request('/health/live')).status).toBe(200);
    expect((await t.http.request('/health/ready')).status).toBe(200);
  });
});
