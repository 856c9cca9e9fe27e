import { orderRows } from '../testing/sales-orders-test-app';
import { A, ok, prices, problem, type Order, usePriceRulesTestApp } from '../testing/price-rules-test-kit';

/**
 * The price rules over HTTP against a real PostgreSQL: item base prices, price classes, price lists
 * with quantity breaks and effective dates, hasManualPrice / hasManualDiscount, re-pricing on PATCH
 * and the 400s of missing prices. Worked examples of docs/api-conventions.md "Price rules".
 */
describe('sales-orders-v3 price rules: how lines are priced', () => {
  const { app, send, create, createOrder, read } = usePriceRulesTestApp('price-rules-pricing');

  describe('a line without unitPrice gets the rule price', () => {
    it('the item base price in the order currency (the customer currency by default, or the order currencyId)', async () => {
      const { order } = await createOrder('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 3 }, { inventoryId: 'NUT-M8', quantity: '7' }], { date: '2026-03-01' });
      expect(prices(order)).toEqual([
        [2.5, 0, 7.5],
        [0.8, 0, 5.6],
      ]);
      expect(order.lines.map((l) => [l.hasManualPrice, l.hasManualDiscount])).toEqual([
        [false, false],
        [false, false],
      ]);
      expect(order.totals.orderTotal).toBe(13.1);
      const euro = await createOrder('EURO', [{ inventoryId: 'BOLT-M8-40', quantity: 3 }]);
      expect(prices(euro.order)).toEqual([[0.22, 0, 0.66]]);
      const nokForEuro = await createOrder('EURO', [{ inventoryId: 'BOLT-M8-40', quantity: 3 }], { currencyId: 'NOK', date: '2025-05-05' });
      expect(prices(nokForEuro.order)).toEqual([[2.5, 0, 7.5]]);
    });

    it('price lists: the highest quantity break reached; customer before price class before everyone; dates pick the entry in force', async () => {
      const day = { date: '2026-03-01' };
      expect(prices((await createOrder('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 99 }], day)).order)).toEqual([[2.5, 0, 247.5]]);
      expect(prices((await createOrder('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 100 }], day)).order)).toEqual([[2.1, 0, 210]]);
      // 1000 x 1.95 less 2 % = 1911
      expect(prices((await createOrder('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 1000 }], day)).order)).toEqual([[1.95, 2, 1911]]);
      // The class's entry wins over the everyone entries even where their price is lower: 1000 x 2.00 less 5 % = 1900
      expect(prices((await createOrder('TRADE1', [{ inventoryId: 'BOLT-M8-40', quantity: 1000 }], day)).order)).toEqual([[2, 5, 1900]]);
      expect(prices((await createOrder('TRADE2', [{ inventoryId: 'BOLT-M8-40', quantity: 3 }], { date: '2026-07-01' })).order)).toEqual([[2.05, 0, 6.15]]);
      // Before the class's first entry is in force: the everyone entries, then the base price
      expect(prices((await createOrder('TRADE2', [{ inventoryId: 'BOLT-M8-40', quantity: 3 }], { date: '2025-12-31T23:00:00Z' })).order)).toEqual([[2.5, 0, 7.5]]);
      // 7 x 1.50 less 10 % = 9.45
      expect(prices((await createOrder('VIP', [{ inventoryId: 'BOLT-M8-40', quantity: 7 }], day)).order)).toEqual([[1.5, 10, 9.45]]);
    });

    it('POST .../lines and the order PATCH insert price new lines the same way', async () => {
      const { etag, path } = await createOrder('TRADE1', [], { date: '2026-03-01' });
      const added = await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'BOLT-M8-40', quantity: 3, unitPrice: null, operation: null }] }, { ifMatch: etag });
      expect(added.status).toBe(202);
      const patched = await send('PATCH', path, { lines: [{ operation: 'insert', inventoryId: 'NUT-M8', quantity: 10 }] }, { ifMatch: added.headers.get('etag')! });
      const order = await ok<Order>(patched, 202);
      expect(prices(order)).toEqual([
        [2, 5, 5.7],
        [0.8, 0, 8],
      ]);
    });
  });

  describe('hasManualPrice and hasManualDiscount', () => {
    it('true (or a price sent without it) keeps the price and discount sent; false replaces them with the rule', async () => {
      const { order } = await createOrder(
        'VIP',
        [
          { inventoryId: 'BOLT-M8-40', quantity: 10, unitPrice: 3, discountPercent: 1 },
          { inventoryId: 'BOLT-M8-40', quantity: 10, unitPrice: 3, hasManualPrice: true, discountPercent: 1, hasManualDiscount: true },
          { inventoryId: 'BOLT-M8-40', quantity: 10, unitPrice: 3, hasManualPrice: false, discountPercent: 1, hasManualDiscount: false },
          { inventoryId: 'BOLT-M8-40', quantity: 10, unitPrice: 3 },
          { inventoryId: 'BOLT-M8-40', quantity: 10, discountPercent: 0 },
        ],
        { date: '2026-03-01' },
      );
      expect(prices(order)).toEqual([
        [3, 1, 29.7],
        [3, 1, 29.7],
        [1.5, 10, 13.5],
        [3, 10, 27],
        [1.5, 0, 15],
      ]);
      expect(order.lines.map((l) => [l.hasManualPrice, l.hasManualDiscount])).toEqual([
        [true, true],
        [true, true],
        [false, false],
        [true, false],
        [false, true],
      ]);
    });

    it('hasManualPrice true without unitPrice is a 400 and stores nothing', async () => {
      const before = await app().sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A]);
      const p = await problem(await create('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 1, hasManualPrice: true }]));
      expect(p.errors['orderLines[0].unitPrice']).toEqual(['unitPrice is required when hasManualPrice is true']);
      expect((await app().sql.query(`SELECT count(*)::int AS n FROM sales_orders WHERE company_id = $1`, [A])).rows).toEqual(before.rows);
    });
  });

  describe('PATCH re-prices a line that is not manual', () => {
    it('a quantity change moves a rule-priced line across a quantity break; a manual line keeps its price', async () => {
      const { etag, path } = await createOrder(
        'RETAIL',
        [
          { inventoryId: 'BOLT-M8-40', quantity: 10 },
          { inventoryId: 'BOLT-M8-40', quantity: 10, unitPrice: 3 },
        ],
        { date: '2026-03-01' },
      );
      const response = await send('PATCH', `${path}/lines`, { lines: [{ lineId: 1, quantity: 150 }, { lineId: 2, quantity: 150 }] }, { ifMatch: etag });
      expect(response.status).toBe(202);
      const { order, etag: next } = await read(path);
      expect(prices(order)).toEqual([
        [2.1, 0, 315],
        [3, 0, 450],
      ]);
      expect(order.totals.orderTotal).toBe(765);
      // hasManualPrice false on the manual line hands it back to the rules; a note alone re-prices nothing
      const back = await send('PATCH', `${path}/lines`, { lines: [{ lineId: 2, hasManualPrice: false }] }, { ifMatch: next });
      expect(back.status).toBe(202);
      expect(prices((await read(path)).order)).toEqual([
        [2.1, 0, 315],
        [2.1, 0, 315],
      ]);
    });

    it('a new order date, customer or currency re-prices every rule-priced line', async () => {
      const { etag, path } = await createOrder('TRADE1', [{ inventoryId: 'BOLT-M8-40', quantity: 10 }, { inventoryId: 'BOLT-M8-40', quantity: 10, unitPrice: 4 }], {
        date: '2026-03-01',
      });
      const moved = await ok<Order>(await send('PATCH', path, { date: '2026-08-01' }, { ifMatch: etag }), 202);
      expect(prices(moved)).toEqual([
        [2.05, 0, 20.5],
        [4, 0, 40],
      ]);
      const { etag: next } = await read(path);
      const vip = await ok<Order>(await send('PATCH', path, { customer: { id: 'VIP' } }, { ifMatch: next }), 202);
      expect(prices(vip)).toEqual([
        [1.5, 10, 13.5],
        [4, 10, 36],
      ]);
    });
  });

  describe('no rule gives a price: 400 on the line, nothing applied', () => {
    it('on create, POST .../lines and a currency change', async () => {
      const created = await problem(await create('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 1 }, { inventoryId: 'UNPRICED', quantity: 2 }], { date: '2026-03-01' }));
      expect(Object.keys(created.errors)).toEqual(['orderLines[1].unitPrice']);
      expect(created.errors['orderLines[1].unitPrice'][0]).toMatch(/^no price rule gives item UNPRICED a price in NOK on 2026-03-01/);

      const { etag, path, order } = await createOrder('RETAIL', [{ inventoryId: 'NUT-M8', quantity: 1 }]);
      const before = await orderRows(app().sql, A, 'SO', order.orderId);
      const added = await problem(await send('POST', `${path}/lines`, { lines: [{ inventoryId: 'NUT-M8', quantity: 1 }, { inventoryId: 'UNPRICED', quantity: 1 }] }, { ifMatch: etag }));
      expect(Object.keys(added.errors)).toEqual(['lines[1].unitPrice']);
      // NUT-M8 has no EUR price: the rule-priced line cannot follow the order into EUR
      const currency = await problem(await send('PATCH', path, { currencyId: 'EUR' }, { ifMatch: etag }));
      expect(currency.errors.currencyId[0]).toMatch(/^no price rule gives item NUT-M8 a price in EUR/);
      expect(await orderRows(app().sql, A, 'SO', order.orderId)).toEqual(before);
    });
  });
});
