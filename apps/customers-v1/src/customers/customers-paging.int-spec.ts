import { insertCustomers, startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

interface CustomerRow {
  number: string;
  metadata: { totalCount: number; maxPageSize: number };
}

const COMPANY = '1000001';
let t: CustomersTestApp;
let headers: Record<string, string>;

async function page(query: string): Promise<{ status: number; body: CustomerRow[] }> {
  const response = await t.http.request(`/v1/customer?${query}`, { headers });
  return { status: response.status, body: (await response.json()) as CustomerRow[] };
}

describe('GET /v1/customer paging (v1 rules)', () => {
  beforeAll(async () => {
    // A small maximum keeps the "above the maximum" cases cheap; the default maximum is tested separately.
    t = await startCustomersTestApp({ CUSTOMER_MAX_PAGE_SIZE: '120' });
    headers = await t.auth.headers({ company: COMPANY });
    await insertCustomers(t.sql, COMPANY, 350);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('reads 350 records at pageSize 100 in 4 requests holding 100, 100, 100 and 50', async () => {
    const sizes: number[] = [];
    const seen = new Set<string>();
    let received = 0;
    let totalCount = Infinity;
    for (let pageNumber = 1; received < totalCount; pageNumber++) {
      const { status, body } = await page(`pageSize=100&pageNumber=${pageNumber}`);
      expect(status).toBe(200);
      sizes.push(body.length);
      received += body.length;
      body.forEach((r) => seen.add(r.number));
      totalCount = body[0]?.metadata.totalCount ?? 0;
      if (body.length === 0) break;
    }
    expect(sizes).toEqual([100, 100, 100, 50]);
    expect(seen.size).toBe(350);
  });

  it('reports totalCount and maxPageSize on every record', async () => {
    const { body } = await page('pageSize=10&pageNumber=2');
    expect(body).toHaveLength(10);
    for (const record of body) expect(record.metadata).toEqual({ totalCount: 350, maxPageSize: 120 });
  });

  it.each(['5000', '99999999999999999999'])(
    'returns only the maximum number of records when pageSize %s exceeds the maximum',
    async (pageSize) => {
      const { status, body } = await page(`pageSize=${pageSize}&pageNumber=1`);
      expect(status).toBe(200);
      expect(body).toHaveLength(120);
      expect(body[0].metadata.maxPageSize).toBe(120);
    },
  );

  it('uses the maximum as the default pageSize and 1 as the default pageNumber', async () => {
    const defaults = await page('');
    const explicit = await page('pageSize=120&pageNumber=1');
    expect(defaults.body).toHaveLength(120);
    expect(defaults.body.map((r) => r.number)).toEqual(explicit.body.map((r) => r.number));
  });

  it('returns records 6 to 10 when page 1 was read at pageSize 3 and page 2 at pageSize 5', async () => {
    const first = await page('pageSize=3&pageNumber=1');
    const second = await page('pageSize=5&pageNumber=2');
    expect(first.body.map((r) => r.number)).toEqual(['P00001', 'P00002', 'P00003']);
    expect(second.body.map((r) => r.number)).toEqual(['P00006', 'P00007', 'P00008', 'P00009', 'P00010']);
  });

  it('keeps pages disjoint and gap-free while the data is unchanged', async () => {
    const all: string[] = [];
    for (let n = 1; n <= 12; n++) all.push(...(await page(`pageSize=30&pageNumber=${n}`)).body.map((r) => r.number));
    expect(all).toHaveLength(350);
    expect(new Set(all).size).toBe(350);
  });

  it('answers a page past the end with 200 and an empty array', async () => {
    const { status, body } = await page('pageSize=100&pageNumber=99');
    expect(status).toBe(200);
    expect(body).toEqual([]);
  });

  it('recomputes totalCount on every request, so records added between pages are counted', async () => {
    const before = await page('pageSize=100&pageNumber=1');
    await insertCustomers(t.sql, COMPANY, 7, { prefix: 'N' });
    const after = await page('pageSize=100&pageNumber=2');
    expect(after.body[0].metadata.totalCount).toBe(before.body[0].metadata.totalCount + 7);
    await t.sql.query(`DELETE FROM customers WHERE number LIKE 'N%'`);
  });

  it.each([
    ['pageNumber=0', 'pageNumber'],
    ['pageNumber=-1', 'pageNumber'],
    ['pageNumber=abc', 'pageNumber'],
    ['pageNumber=1.5', 'pageNumber'],
    ['pageNumber=', 'pageNumber'],
    ['pageNumber=1&pageNumber=2', 'pageNumber'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=-5', 'pageSize'],
    ['pageSize=ten', 'pageSize'],
    ['pageSize=1e2', 'pageSize'],
  ])('refuses %s with 400 naming %s in the v1 error shape', async (query, parameter) => {
    const response = await t.http.request(`/v1/customer?${query}`, { headers });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({
      ExceptionType: 'ValidationException',
      ExceptionMessage: expect.stringContaining(parameter),
      ExceptionFaultCode: '10001',
      ExceptionMessageID: expect.stringMatching(/^10001_[0-9a-f-]{36}$/),
      ExceptionDetails: '',
    });
  });
});

describe('GET /v1/customer default maximum', () => {
  let app: CustomersTestApp;
  beforeAll(async () => {
    app = await startCustomersTestApp();
    await insertCustomers(app.sql, COMPANY, 1005);
  });
  afterAll(() => app.close());

  it('defaults to a maximum pageSize of 1000 for customers', async () => {
    const response = await app.http.request('/v1/customer?pageSize=2000&pageNumber=1', {
      headers: await app.auth.headers({ company: COMPANY }),
    });
    const body = (await response.json()) as CustomerRow[];
    expect(body).toHaveLength(1000);
    expect(body[0].metadata).toEqual({ totalCount: 1005, maxPageSize: 1000 });
  });
});
