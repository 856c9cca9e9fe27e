import { insertOrders } from '../testing/sales-orders-test-app';
import { range, useSalesOrdersListTestApp } from '../testing/sales-orders-list-kit';

const FILTERS = '3000002';

describe('GET /api/v3/SalesOrders: filters, orderBy', () => {
  const { app, list, ids } = useSalesOrdersListTestApp('list-filters', async (sql) => {
    // FILTERS: SO 1-10 Acme/Open, SO 11-20 Fjord/Hold, QT 1-10 Nordic/Completed; last modified in reverse order.
    await insertOrders(sql, FILTERS, 10, {
      customerId: '10001',
      customerName: 'Acme AS',
      customerOrder: (i) => `PO-${1000 + i}`,
      modifiedOffsetSeconds: (i) => (31 - i) * 100,
    });
    await insertOrders(sql, FILTERS, 10, {
      customerId: '10002',
      customerName: 'Fjord Shipping AB',
      status: () => 'Hold',
      start: '2026-01-01T00:00:10Z',
      modifiedOffsetSeconds: (i) => (21 - i) * 100,
    });
    await insertOrders(sql, FILTERS, 10, {
      type: 'QT',
      customerId: '10003',
      customerName: 'Nordic 100% Timber_Works',
      status: () => 'Completed',
      start: '2026-01-01T00:00:20Z',
      modifiedOffsetSeconds: (i) => (11 - i) * 100,
    });
  });

  describe('filters', () => {
    it('lists one type under /{type}; an unknown type is 400', async () => {
      expect(await ids(FILTERS, '/api/v3/SalesOrders/QT')).toEqual(range(1, 10, 'QT'));
      expect((await list(FILTERS, '/api/v3/SalesOrders/QT')).page.totalCount).toBe(10);
      const response = await app().http.request('/api/v3/SalesOrders/XX', { headers: await app().headers(FILTERS) });
      expect(response.status).toBe(400);
    });

    it('filters by customerId and status, with totalCount for the filter', async () => {
      const byCustomer = await list(FILTERS, '/api/v3/SalesOrders?customerId=10002&pageSize=4');
      expect(byCustomer.page.totalCount).toBe(10);
      expect(byCustomer.page.value.map((o) => o.orderId)).toEqual(['000011', '000012', '000013', '000014']);
      expect(byCustomer.page.nextPage).toBe('/api/v3/SalesOrders?customerId=10002&pageSize=4&pageIndex=1');
      const held = await list(FILTERS, '/api/v3/SalesOrders?status=Hold');
      expect(held.page.totalCount).toBe(10);
      expect(held.page.value.every((o) => o.status === 'Hold')).toBe(true);
      expect((await list(FILTERS, '/api/v3/SalesOrders?status=completed')).page.totalCount).toBe(10);
      expect((await list(FILTERS, '/api/v3/SalesOrders/SO?status=Completed')).page.totalCount).toBe(0);
      expect((await list(FILTERS, '/api/v3/SalesOrders?customerId=&status=')).page.totalCount).toBe(30);
      const bad = await app().http.request('/api/v3/SalesOrders?status=Sleeping', { headers: await app().headers(FILTERS) });
      expect(bad.status).toBe(400);
    });

    it('filters by modifiedSince: UTC without an offset, the given offset otherwise, inclusive', async () => {
      // SO 1..10 were modified at 2026-01-01T00:00:00Z + i s + (31 - i) x 100 s.
      const so5 = (await list(FILTERS, '/api/v3/SalesOrders/SO?customerId=10001')).page.value[4];
      expect(so5.orderId).toBe('000005');
      expect(so5.lastModified).toBe('2026-01-01T00:43:25.000Z');
      const utc = await list(FILTERS, `/api/v3/SalesOrders/SO?customerId=10001&modifiedSince=2026-01-01T00:43:25`);
      expect(utc.page.value.map((o) => o.orderId)).toEqual(['000001', '000002', '000003', '000004', '000005']);
      const offset = await list(FILTERS, `/api/v3/SalesOrders/SO?customerId=10001&modifiedSince=${encodeURIComponent('2026-01-01T01:43:25+01:00')}`);
      expect(offset.page.totalCount).toBe(5);
      const echoed = await list(FILTERS, `/api/v3/SalesOrders/SO?customerId=10001&modifiedSince=${so5.lastModified}`);
      expect(echoed.page.totalCount).toBe(5);
      for (const bad of ['yesterday', '2026-13-01', '2026-01-01T25:00']) {
        const response = await app().http.request(`/api/v3/SalesOrders?modifiedSince=${bad}`, { headers: await app().headers(FILTERS) });
        expect(response.status).toBe(400);
      }
    });

    it('matches filter case-insensitively against orderId, customer order number and customer name', async () => {
      expect(await ids(FILTERS, '/api/v3/SalesOrders?filter=00001')).toEqual(['SO/000001', ...range(10, 19), 'QT/000001', 'QT/000010']);
      expect(await ids(FILTERS, '/api/v3/SalesOrders?filter=po-1003')).toEqual(['SO/000003']);
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=FJORD%20ship')).page.totalCount).toBe(10);
      // % and _ are literal characters, never wildcards.
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=100%25%20timber_')).page.totalCount).toBe(10);
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=%25')).page.totalCount).toBe(10);
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=_')).page.totalCount).toBe(10);
      // A match never spans two fields.
      expect((await list(FILTERS, '/api/v3/SalesOrders?filter=0001po')).page.totalCount).toBe(0);
    });

    it('combines filters and keeps them all in nextPage', async () => {
      const { page } = await list(FILTERS, '/api/v3/SalesOrders/SO?status=Open&filter=acme&orderBy=orderId%20desc&pageSize=3');
      expect(page.totalCount).toBe(10);
      expect(page.value.map((o) => o.orderId)).toEqual(['000010', '000009', '000008']);
      expect(page.nextPage).toBe('/api/v3/SalesOrders/SO?status=Open&filter=acme&orderBy=orderId%20desc&pageSize=3&pageIndex=1');
      const second = await list(FILTERS, page.nextPage!);
      expect(second.page.value.map((o) => o.orderId)).toEqual(['000007', '000006', '000005']);
    });
  });

  describe('orderBy', () => {
    it('orders by created ascending by default', async () => {
      expect(await ids(FILTERS, '/api/v3/SalesOrders?pageSize=30')).toEqual([...range(1, 10), ...range(11, 20), ...range(1, 10, 'QT')]);
    });

    it.each([
      ['created desc', (all: string[]) => [...all].reverse()],
      ['CREATED ASC', (all: string[]) => all],
    ])('orders by %s', async (orderBy, expected) => {
      const all = [...range(1, 10), ...range(11, 20), ...range(1, 10, 'QT')];
      expect(await ids(FILTERS, `/api/v3/SalesOrders?orderBy=${encodeURIComponent(orderBy)}`)).toEqual(expected(all));
    });

    it('orders by lastModified, asc by default, desc when asked', async () => {
      const asc = await ids(FILTERS, '/api/v3/SalesOrders?orderBy=lastModified');
      expect(asc.slice(0, 3)).toEqual(['QT/000010', 'QT/000009', 'QT/000008']);
      expect(await ids(FILTERS, '/api/v3/SalesOrders?orderBy=lastModified%20desc')).toEqual([...asc].reverse());
    });

    it('orders by orderId, the type breaking ties', async () => {
      const asc = await ids(FILTERS, '/api/v3/SalesOrders?orderBy=orderId&pageSize=4');
      expect(asc).toEqual(['QT/000001', 'SO/000001', 'QT/000002', 'SO/000002']);
      const desc = await ids(FILTERS, '/api/v3/SalesOrders?orderBy=orderid+desc&pageSize=3');
      expect(desc).toEqual(['SO/000020', 'SO/000019', 'SO/000018']);
    });

    it('pages a stable order: every order exactly once across pages for each orderBy', async () => {
      for (const orderBy of ['created', 'lastModified desc', 'orderId']) {
        const seen: string[] = [];
        let next: string | null = `/api/v3/SalesOrders?orderBy=${encodeURIComponent(orderBy)}&pageSize=7`;
        while (next) {
          const { page } = await list(FILTERS, next);
          seen.push(...page.value.map((o) => `${o.type}/${o.orderId}`));
          next = page.nextPage;
        }
        expect(new Set(seen).size).toBe(30);
        expect(seen).toHaveLength(30);
      }
    });

    it.each(['name', 'created sideways', 'created,orderId', ''])('refuses orderBy=%j', async (orderBy) => {
      const response = await app().http.request(`/api/v3/SalesOrders?orderBy=${encodeURIComponent(orderBy)}`, { headers: await app().headers(FILTERS) });
      expect(response.status).toBe(400);
    });
  });
});
