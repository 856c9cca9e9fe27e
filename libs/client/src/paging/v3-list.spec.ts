import { ErpClient } from '../erp-client';

function respond(body: unknown): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
}

describe('v3 list iterator', () => {
  it('follows nextPage exactly as the server gave it until it is null', async () => {
    const requests: string[] = [];
    const fetch = (async (input: string | URL) => {
      const url = new URL(String(input));
      requests.push(url.pathname + url.search);
      const pageIndex = Number(url.searchParams.get('pageIndex') ?? 0);
      const nextPage = pageIndex < 2 ? `/api/v3/SalesOrders?customerId=C1&expand=lines&pageSize=2&pageIndex=${pageIndex + 1}` : null;
      return respond({ value: [{ n: pageIndex * 2 }, { n: pageIndex * 2 + 1 }], totalCount: 6, nextPage });
    }) as typeof globalThis.fetch;
    const client = new ErpClient({ baseUrl: 'http://erp.test/', token: 't', fetch });
    const pages: unknown[] = [];
    const seen: unknown[] = [];
    for await (const item of client.v3.list('/api/v3/SalesOrders', { customerId: 'C1', expand: 'lines', pageSize: 2 }, { onPage: (p) => pages.push(p) })) seen.push(item);
    expect(seen).toEqual([0, 1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(requests).toEqual([
      '/api/v3/SalesOrders?customerId=C1&expand=lines&pageSize=2',
      '/api/v3/SalesOrders?customerId=C1&expand=lines&pageSize=2&pageIndex=1',
      '/api/v3/SalesOrders?customerId=C1&expand=lines&pageSize=2&pageIndex=2',
    ]);
    expect(pages).toEqual([
      { pageIndex: 0, pageNumber: 1, received: 2, totalCount: 6 },
      { pageIndex: 1, pageNumber: 2, received: 4, totalCount: 6 },
      { pageIndex: 2, pageNumber: 3, received: 6, totalCount: 6 },
    ]);
  });

  it('stops on an empty page even when nextPage is set', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return respond({ value: [], totalCount: 5, nextPage: '/api/v3/SalesOrders?pageIndex=1' });
    }) as typeof globalThis.fetch;
    const client = new ErpClient({ baseUrl: 'http://erp.test', token: 't', fetch });
    const seen = [];
    for await (const item of client.v3.list('/api/v3/SalesOrders')) seen.push(item);
    expect(seen).toEqual([]);
    expect(calls).toBe(1);
  });
});
