import { describeV1PagingRules } from '@erp/testing';
import { insertCustomers, startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

interface CustomerRow {
  number: string;
  metadata: { totalCount: number; maxPageSize: number };
}

const COMPANY = '1000001';
let t: CustomersTestApp;

// The v1 paging suite every v1 list runs (libs/testing), here against /v1/customer.
describeV1PagingRules('GET /v1/customer paging (v1 rules)', {
  path: '/v1/customer',
  idField: 'number',
  maxPageSize: 120,
  async start() {
    t = await startCustomersTestApp({ CUSTOMER_MAX_PAGE_SIZE: '120' });
    // Another company's customers are never counted or listed.
    await insertCustomers(t.sql, '2000002', 40, { prefix: 'X' });
    return {
      http: t.http,
      headers: await t.auth.headers({ company: COMPANY }),
      insert: (count, tag) => insertCustomers(t.sql, COMPANY, count, { prefix: tag }),
      remove: async (tag) => {
        await t.sql.query(`DELETE FROM customers WHERE company_id = $1 AND number LIKE $2 || '%'`, [COMPANY, tag]);
      },
    };
  },
  stop: async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  },
});

describe('GET /v1/customer default maximum', () => {
  let app: CustomersTestApp;
  beforeAll(async () => {
    app = await startCustomersTestApp();
    await insertCustomers(app.sql, COMPANY, 1005);
  });
  afterAll(() => app.close());

  it('defaults to a maximum pageSize of 1000 for customers', async () => {
    const headers = await app.auth.headers({ company: COMPANY });
    const response = await app.http.request('/v1/customer?pageSize=2000&pageNumber=1', { headers });
    const body = (await response.json()) as CustomerRow[];
    expect(body).toHaveLength(1000);
    expect(body[0].metadata).toEqual({ totalCount: 1005, maxPageSize: 1000 });
    const defaults = (await (await app.http.request('/v1/customer', { headers })).json()) as unknown[];
    expect(defaults).toHaveLength(1000);
  });

  it('streams a large page from the cursor, with the very bytes of the same rows read as text', async () => {
    const headers = await app.auth.headers({ company: COMPANY });
    const read = (query: string) => app.http.request(`/v1/customer?${query}`, { headers });
    for (const [filter, size, page] of [['', 1000, 1], ['', 600, 2], ['status=Active&', 500, 1]] as const) {
      const streamed = await read(`${filter}pageSize=${size}&pageNumber=${page}`);
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
      // Streamed: no length known up front; a small page is one text with its length.
      expect(streamed.headers.get('transfer-encoding')).toBe('chunked');
      const text = await streamed.text();
      // The same rows as pages of 100 (text bodies) spliced together: byte for byte the same body.
      const parts: string[] = [];
      for (let n = ((page - 1) * size) / 100 + 1; parts.length < size / 100; n++) {
        const small = await read(`${filter}pageSize=100&pageNumber=${n}`);
        expect(small.headers.get('content-length')).not.toBeNull();
        const body = await small.text();
        if (body === '[]') break;
        parts.push(body.slice(1, -1));
      }
      const expected = `[${parts.join(',')}]`;
      const firstDifference = [...text].findIndex((ch, i) => ch !== expected[i]);
      expect({ length: text.length, firstDifference }).toEqual({ length: expected.length, firstDifference: -1 });
      const records = JSON.parse(text) as CustomerRow[];
      expect(records).toHaveLength(Math.min(size, 1005 - (page - 1) * size));
      expect(records[0].metadata).toEqual({ totalCount: 1005, maxPageSize: 1000 });
    }
  });
});
