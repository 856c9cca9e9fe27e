import { insertCustomers, startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const COMPANY = '1000001';
let t: CustomersTestApp;

async function scrape(): Promise<string> {
  const response = await t.http.request('/metrics');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** Value of one series, 0 when it has no sample yet. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const series = (route: string, status: number, suffix: 'count' | 'sum', method = 'GET') =>
  `http_request_duration_seconds_${suffix}{method="${method}",route="${route}",status_code="${status}"}`;

describe('GET /metrics on customers-v1', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
    await insertCustomers(t.sql, COMPANY, 3, { prefix: 'M' });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('answers without a token, with the process series', async () => {
    const text = await scrape();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('moves the latency histogram by route pattern and status as traffic flows', async () => {
    const headers = await t.auth.headers({ company: COMPANY });
    const before = await scrape();
    for (let i = 0; i < 3; i++)
      expect((await t.http.request('/v1/customer?pageSize=2', { headers })).status).toBe(200);
    expect((await t.http.request('/v1/customer/M00001', { headers })).status).toBe(200);
    expect((await t.http.request('/v1/customer/NOPE', { headers })).status).toBe(404);
    expect((await t.http.request('/v1/customer')).status).toBe(401);
    const after = await scrape();

    expect(
      value(after, series('/v1/customer', 200, 'count')) -
        value(before, series('/v1/customer', 200, 'count')),
    ).toBe(3);
    expect(value(after, series('/v1/customer', 200, 'sum'))).toBeGreaterThan(
      value(before, series('/v1/customer', 200, 'sum')),
    );
    expect(
      value(after, series('/v1/customer/:customerNumber', 200, 'count')) -
        value(before, series('/v1/customer/:customerNumber', 200, 'count')),
    ).toBe(1);
    expect(
      value(after, series('/v1/customer/:customerNumber', 404, 'count')) -
        value(before, series('/v1/customer/:customerNumber', 404, 'count')),
    ).toBe(1);
    expect(
      value(after, series('/v1/customer', 401, 'count')) -
        value(before, series('/v1/customer', 401, 'count')),
    ).toBe(1);
    // Labels carry the route pattern, never the raw path or query.
    expect(after).not.toMatch(/M00001|NOPE|pageSize/);
  });
});

describe('outbox backlog on /metrics', () => {
  let down: CustomersTestApp;
  // Nothing listens on port 9: the relay cannot publish, so events wait in the outbox.
  beforeAll(async () => {
    down = await startCustomersTestApp({ KAFKA_BROKERS: '127.0.0.1:9' });
  });
  afterAll(() => down.close());

  const backlog = async (name: string) => {
    const text = await (await down.http.request('/metrics')).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}{service="customers-v1"} `));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  };

  it('counts events committed but not yet published, and their age', async () => {
    expect(await backlog('outbox_pending_events')).toBe(0);
    const headers = { ...(await down.auth.headers({ company: COMPANY })), 'content-type': 'application/json' };
    for (const name of ['Backlog One', 'Backlog Two']) {
      const response = await down.http.request('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name }) });
      expect(response.status).toBe(201);
    }
    expect(await backlog('outbox_pending_events')).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await backlog('outbox_oldest_pending_age_seconds')).toBeGreaterThan(0);
  });
});
