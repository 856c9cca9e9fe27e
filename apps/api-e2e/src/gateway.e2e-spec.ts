import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TOPICS } from '@erp/contracts';
import { TestAuth, testTopicPrefix, TopicReader } from '@erp/testing';
import { insertCustomers } from './support/customers';

const A = '1000001';
const B = '2000002';
const auth = new TestAuth();
let system: RunningSystem;
let testSystem: TestSystem | undefined;
const statuses: number[] = [];
const topicPrefix = testTopicPrefix('e2e');

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${system.baseUrl}${path}`, init);
  statuses.push(response.status);
  return response;
}

/** The real system: every service and the gateway as separate processes, as `npm start` runs them. */
describe('the system through the api-gateway', () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('e2e', { env: { KAFKA_TOPIC_PREFIX: topicPrefix }, auth });
    system = testSystem.system;
    await insertCustomers(system.databaseUrls['customers-v1'], A, 350, 'A');
    await insertCustomers(system.databaseUrls['customers-v1'], B, 5, 'B');
  }, 120_000);

  afterAll(async () => {
    expect(statuses.filter((s) => s >= 500 && s !== 503)).toEqual([]);
    await testSystem?.stop();
  });

  it('pages a customer list through the gateway: 350 records at pageSize 100 in 100/100/100/50', async () => {
    const headers = await auth.headers({ company: A });
    const sizes: number[] = [];
    let received = 0;
    let totalCount = Infinity;
    for (let pageNumber = 1; received < totalCount; pageNumber++) {
      const response = await call(`/v1/customer?pageSize=100&pageNumber=${pageNumber}`, { headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as Array<{ metadata: { totalCount: number; maxPageSize: number } }>;
      if (body.length === 0) break;
      expect(body[0].metadata.maxPageSize).toBe(1000);
      totalCount = body[0].metadata.totalCount;
      received += body.length;
      sizes.push(body.length);
    }
    expect(sizes).toEqual([100, 100, 100, 50]);
  });

  it('creates and updates through the gateway with ETags intact', async () => {
    const headers = { ...(await auth.headers({ company: A })), 'content-type': 'application/json' };
    const created = await call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: 'Via Gateway' }) });
    expect(created.status).toBe(201);
    const etag = created.headers.get('etag')!;
    const location = created.headers.get('location')!;
    const updated = await call(location, { method: 'PUT', headers: { ...headers, 'if-match': etag }, body: JSON.stringify({ status: 'OnHold' }) });
    expect(updated.status).toBe(204);
    const stale = await call(location, { method: 'PUT', headers: { ...headers, 'if-match': etag }, body: JSON.stringify({ status: 'Active' }) });
    expect(stale.status).toBe(412);
    const read = await call(location, { headers });
    expect(((await read.json()) as { status: string }).status).toBe('OnHold');
  });

  it('publishes the events of changes made through the gateway to Kafka', async () => {
    const reader = await TopicReader.start([`${topicPrefix}${TOPICS.customers}`]);
    try {
      const headers = { ...(await auth.headers({ company: A })), 'content-type': 'application/json' };
      const created = await call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: 'Evented Via Gateway' }) });
      expect(created.status).toBe(201);
      const { number } = (await created.json()) as { number: string };
      const updated = await call(`/v1/customer/${number}`, { method: 'PUT', headers, body: JSON.stringify({ status: 'OnHold' }) });
      expect(updated.status).toBe(204);
      const deadline = Date.now() + 15_000;
      const mine = () => reader.events().filter((event) => event.subject === number);
      while (mine().length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(mine().map((event) => [event.type, event['companyId'], (event['data'] as { status: string }).status])).toEqual([
        ['CUSTOMER_CREATED', A, 'Active'],
        ['CUSTOMER_UPDATED', A, 'OnHold'],
      ]);
    } finally {
      await reader.stop();
    }
  });

  it('assigns an x-request-id, keeps a caller’s valid one, and replaces an invalid one', async () => {
    const headers = await auth.headers({ company: A });
    const assigned = await call('/v1/customer?pageSize=1', { headers });
    expect(assigned.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await call('/v1/customer?pageSize=1', { headers: { ...headers, 'x-request-id': 'trace-abc-123' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc-123');
    const replaced = await call('/v1/customer?pageSize=1', { headers: { ...headers, 'x-request-id': 'bad id with spaces' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await call('/v1/customer?pageSize=0', { headers });
    expect(failed.status).toBe(400);
    expect(failed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses bad tokens and headers at the gateway in the v1 shape', async () => {
    const none = await call('/v1/customer');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await none.json()) as object).toHaveProperty('ExceptionFaultCode', '10101');

    const expired = await call('/v1/customer', {
      headers: { ...(await auth.headers({ company: A })), authorization: `Bearer ${await auth.token({ companies: [A], expiresInSeconds: -10 })}` },
    });
    expect(expired.status).toBe(401);

    const noAppType = await call('/v1/customer', { headers: await auth.headers({ company: A, applicationType: null }) });
    expect(noAppType.status).toBe(400);

    const noCompany = await call('/v1/customer', { headers: await auth.headers({ companies: [A, B], company: null }) });
    expect(noCompany.status).toBe(400);

    const foreignCompany = await auth.headers({ companies: [A], company: A });
    foreignCompany['ipp-company-id'] = B;
    expect((await call('/v1/customer', { headers: foreignCompany })).status).toBe(403);
  });

  it('never shows another company’s customer through the gateway', async () => {
    const headers = await auth.headers({ company: A });
    expect((await call('/v1/customer/B00001', { headers })).status).toBe(404);
    const list = (await (await call('/v1/customer?name=Customer&pageSize=1000', { headers })).json()) as Array<{ number: string }>;
    expect(list.length).toBeGreaterThan(0);
    expect(list.some((c) => c.number.startsWith('B'))).toBe(false);
  });

  it('answers unknown paths with 404 in the family’s error shape', async () => {
    const headers = await auth.headers({ company: A });
    const v1 = await call('/v1/nothing-here', { headers });
    expect(v1.status).toBe(404);
    expect((await v1.json()) as object).toHaveProperty('ExceptionFaultCode', '10202');

    const v3 = await call('/api/v3/Nothing', { headers });
    expect(v3.status).toBe(404);
    expect(v3.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await v3.json()) as object).toMatchObject({ status: 404, title: 'Resource not found', instance: '/api/v3/Nothing' });

    const traversal = await call('/v1/customer/%2e%2e/%2e%2e/api/webhooks', { headers });
    expect(traversal.status).toBe(404);
  });

  it('exposes its own health without a token', async () => {
    expect((await call('/health/live')).status).toBe(200);
    expect((await call('/health/ready')).status).toBe(200);
  });

  it('answers 503 with Retry-After in the family shape while the owning service is down', async () => {
    // Every replica of it (TEST_REPLICAS): while one serves, the service is not down.
    const replicas = system.processes.filter((p) => p.name === 'customers-v1' || p.name.startsWith('customers-v1#'));
    expect(replicas.length).toBeGreaterThan(0);
    await Promise.all(replicas.map((replica) => replica.stop('SIGKILL')));
    const response = await call('/v1/customer', { headers: await auth.headers({ company: A }) });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeTruthy();
    expect((await response.json()) as object).toHaveProperty('ExceptionFaultCode', '10601');
  });
});
