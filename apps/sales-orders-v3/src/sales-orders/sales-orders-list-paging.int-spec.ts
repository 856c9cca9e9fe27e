import { insertOrders } from '../testing/sales-orders-test-app';
import { range, useSalesOrdersListTestApp } from '../testing/sales-orders-list-kit';

const PAGING = '3000001';

describe('GET /api/v3/SalesOrders: paging', () => {
  const { app, list, ids } = useSalesOrdersListTestApp('list-paging', async (sql) => {
    await insertOrders(sql, PAGING, 1100);
  });

  describe('paging', () => {
    it('uses pageSize 100 and the 0-based pageIndex 0 by default', async () => {
      const { page } = await list(PAGING, '/api/v3/SalesOrders');
      expect(page.value.map((o) => o.orderId)).toEqual(range(1, 100).map((id) => id.slice(3)));
      expect(page.totalCount).toBe(1100);
      expect(page.nextPage).toBe('/api/v3/SalesOrders?pageSize=100&pageIndex=1');
    });

    it('treats pageIndex as 0-based: pageIndex=1 is the second page', async () => {
      expect(await ids(PAGING, '/api/v3/SalesOrders?pageSize=25&pageIndex=1')).toEqual(range(26, 50));
    });

    it('cuts a pageSize above 1000 to 1000 and says so in nextPage', async () => {
      const { page } = await list(PAGING, '/api/v3/SalesOrders?pageSize=5000');
      expect(page.value).toHaveLength(1000);
      expect(page.nextPage).toBe('/api/v3/SalesOrders?pageSize=1000&pageIndex=1');
      const last = await list(PAGING, page.nextPage!);
      expect(last.page.value).toHaveLength(100);
      expect(last.page.nextPage).toBeNull();
    });

    it('reads 1100 orders at pageSize 300 by following nextPage: 300/300/300/200, none twice, then null', async () => {
      const sizes: number[] = [];
      const seen = new Set<string>();
      let next: string | null = '/api/v3/SalesOrders?pageSize=300';
      while (next) {
        const { page } = await list(PAGING, next);
        sizes.push(page.value.length);
        page.value.forEach((o) => seen.add(o.orderId));
        next = page.nextPage;
      }
      expect(sizes).toEqual([300, 300, 300, 200]);
      expect(seen.size).toBe(1100);
    });

    it('answers an empty page with nextPage null past the end', async () => {
      const { status, page } = await list(PAGING, '/api/v3/SalesOrders?pageIndex=50');
      expect(status).toBe(200);
      expect(page).toEqual({ value: [], totalCount: 1100, nextPage: null });
    });

    it.each(['pageSize=-1', 'pageSize=1.5', 'pageSize=abc', 'pageSize=0', 'pageIndex=-1', 'pageIndex=x', 'pageIndex=1&pageIndex=2'])(
      'refuses %s with 400 problem+json naming the parameter',
      async (query) => {
        const response = await app().http.request(`/api/v3/SalesOrders?${query}`, { headers: await app().headers(PAGING) });
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const problem = (await response.json()) as { errors: Record<string, string[]> };
        expect(Object.keys(problem.errors)).toEqual([query.split('=')[0]]);
      },
    );

    it('refuses unknown parameters so a misspelt filter never returns everything', async () => {
      const response = await app().http.request('/api/v3/SalesOrders?customerID=10001', { headers: await app().headers(PAGING) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { details: Array<{ code: string }> }).details[0].code).toBe('0003-UnknownProperty');
    });
  });
});
