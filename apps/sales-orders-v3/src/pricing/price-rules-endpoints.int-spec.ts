import { B, ok, prices, problem, type Order, usePriceRulesTestApp } from '../testing/price-rules-test-kit';

/**
 * The price rules' extension endpoints (PriceLists, PriceClasses, item prices): what they keep, the
 * 400s of bad rule bodies, and tenancy.
 */
describe('sales-orders-v3 price rules: the extension endpoints', () => {
  const { send, create } = usePriceRulesTestApp('price-rules-endpoints');

  describe('the extension endpoints', () => {
    it('answer what they keep, and GET it back', async () => {
      const list = await ok<{ entries: object[] }>(await send('GET', '/api/v3/PriceLists/NOK-2026'), 200);
      expect(list).toMatchObject({ priceListId: 'NOK-2026', description: 'Prices 2026', currencyId: 'NOK' });
      expect(list.entries[2]).toEqual({
        inventoryId: 'BOLT-M8-40',
        customerId: null,
        priceClassId: 'TRADE',
        minQuantity: 0,
        unitPrice: 2,
        discountPercent: 5,
        effectiveFrom: '2026-01-01',
        effectiveTo: '2026-06-30',
      });
      expect(await ok(await send('GET', '/api/v3/PriceClasses/TRADE'), 200)).toMatchObject({ priceClassId: 'TRADE', customers: ['TRADE1', 'TRADE2'] });
      const replaced = await send('PUT', '/api/v3/PriceClasses/TRADE', { description: 'Trade', customers: ['TRADE1', 'TRADE2'] });
      expect(replaced.status).toBe(200);
    });

    it('refuse bad input with every problem in one 400 and change nothing', async () => {
      const before = await ok(await send('GET', '/api/v3/PriceLists/NOK-2026'), 200);
      const bad = await problem(
        await send('PUT', '/api/v3/PriceLists/NOK-2026', {
          currencyId: 'nok',
          entries: [
            { inventoryId: 'BOLT-M8-40', customerId: 'VIP', priceClassId: 'TRADE', unitPrice: 1 },
            { inventoryId: 'BOLT-M8-40', unitPrice: 1, effectiveFrom: '2026-05-01', effectiveTo: '2026-04-30' },
            { inventoryId: 'NO-SUCH-ITEM', unitPrice: 1 },
            { inventoryId: 'NUT-M8', priceClassId: 'NOCLASS', unitPrice: -1, effectiveFrom: '2026-02-30' },
            { inventoryId: 'NUT-M8', customerId: 'NOBODY', unitPrice: 1, discountPercent: 101 },
            { inventoryId: 'BOLT-M8-40', minQuantity: '0.000', unitPrice: 2, effectiveFrom: '2026-05-01' },
          ],
        }),
      );
      expect(Object.keys(bad.errors).sort()).toEqual(
        [
          'currencyId',
          'entries[0].priceClassId',
          'entries[1].effectiveTo',
          'entries[2].inventoryId',
          'entries[3].priceClassId',
          'entries[3].unitPrice',
          'entries[3].effectiveFrom',
          'entries[4].customerId',
          'entries[4].discountPercent',
          'entries[5]',
        ].sort(),
      );
      expect(await ok(await send('GET', '/api/v3/PriceLists/NOK-2026'), 200)).toEqual(before);
      const taken = await problem(await send('PUT', '/api/v3/PriceClasses/OTHER', { customers: ['RETAIL', 'TRADE1', 'GHOST'] }));
      expect(taken.errors).toEqual({ 'customers[2]': [expect.stringMatching(/customer GHOST does not exist/)] });
      const moved = await problem(await send('PUT', '/api/v3/PriceClasses/OTHER', { customers: ['RETAIL', 'TRADE1'] }));
      expect(moved.errors).toEqual({ 'customers[1]': ['customer TRADE1 is in price class TRADE; remove it there first'] });
      expect((await send('GET', '/api/v3/PriceClasses/OTHER')).status).toBe(404);
      const prices = await problem(await send('PUT', '/api/v3/Inventory/NUT-M8', { prices: [{ currencyId: 'NOK', unitPrice: 1 }, { currencyId: 'NOK', unitPrice: 2 }] }));
      expect(Object.keys(prices.errors)).toEqual(['prices[1].currencyId']);
      expect((await problem(await send('PUT', '/api/v3/PriceClasses/far-too-long-id', {}))).errors).toHaveProperty('priceClassId');
    });
  });

  describe('tenancy', () => {
    it("one company's prices never price another company's orders, and its lists are 404 to others", async () => {
      const response = await create('RETAIL', [{ inventoryId: 'BOLT-M8-40', quantity: 3 }], { date: '2026-03-01' }, B);
      expect(prices(await ok<Order>(response, 201))).toEqual([[99, 0, 297]]);
      expect((await send('GET', '/api/v3/PriceLists/NOK-2026', undefined, { company: B })).status).toBe(404);
      expect((await send('GET', '/api/v3/PriceClasses/TRADE', undefined, { company: B })).status).toBe(404);
      // B's class of the same name is B's own, and B's customers are B's
      expect((await send('PUT', '/api/v3/PriceClasses/TRADE', { customers: ['RETAIL'] }, { company: B })).status).toBe(201);
      expect(await ok(await send('GET', '/api/v3/PriceClasses/TRADE'), 200)).toMatchObject({ customers: ['TRADE1', 'TRADE2'] });
    });
  });
});
