import { TestAuth } from '@erp/testing';
import { seedCompany } from './seed-data';
import { DEMO_PRICE_CLASS, DEMO_PRICE_LIST } from './seed-prices';
import { demoInventoryItems } from './seed-sales-orders';
import { startTestSystem, type TestSystem } from './test-system';

const COMPANY = '7000007';
const auth = new TestAuth();
let testSystem: TestSystem;

/** The dev seed against the whole system: its orders name items it created first, as the README's examples do, and its prices show every price rule. */
describe('dev seed', () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('dev_seed', { auth, services: ['customers-v1', 'sales-orders-v3'] });
  }, 300_000);

  afterAll(async () => {
    await testSystem?.stop();
  }, 120_000);

  it('creates an inventory item per demo product, then orders that name them', async () => {
    const { system } = testSystem;
    expect(await seedCompany({ baseUrl: system.baseUrl, keys: auth.keys, companyId: COMPANY, customers: 4, salesOrders: 3, supplierInvoices: 0 })).toBe(true);
    const headers = await auth.headers({ company: COMPANY, applicationType: null });
    const inventory = (await (await fetch(`${system.baseUrl}/api/v3/Inventory?expand=location,attribute`, { headers })).json()) as {
      value: Array<{ inventoryId: string; availability: Array<{ locations: unknown[] }>; attributes: Record<string, string> }>;
      totalCount: number;
    };
    expect(inventory.value.map((i) => i.inventoryId)).toEqual(demoInventoryItems().map((i) => i.inventoryId));
    expect(inventory.value.map((i) => i.inventoryId)).toContain('BOLT-M8-40');
    expect(inventory.value.every((i) => i.availability.length > 0 && i.availability.every((w) => w.locations.length === 2) && i.attributes.WEBSHOP)).toBe(true);
    const orders = (await (await fetch(`${system.baseUrl}/api/v3/SalesOrders?expand=lines`, { headers })).json()) as { totalCount: number; value: Array<{ lines: Array<{ inventory: { id: string } }> }> };
    expect(orders.totalCount).toBe(3);
    const known = new Set(inventory.value.map((i) => i.inventoryId));
    expect(orders.value.flatMap((o) => o.lines.map((l) => l.inventory.id)).every((id) => known.has(id))).toBe(true);
  }, 300_000);

  it('has every pricing feature: base prices, currency rates, a price class, a price list with quantity breaks', async () => {
    const headers = await auth.headers({ company: COMPANY, applicationType: null });
    const get = async (path: string) => {
      const response = await fetch(`${testSystem.system.baseUrl}${path}`, { headers });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      return response.json();
    };
    expect(await get('/api/v3/CurrencyRates')).toMatchObject({ baseCurrencyId: 'NOK', rates: expect.arrayContaining([{ currencyId: 'EUR', effectiveDate: '2026-03-01', rate: 11.75 }]) });
    const priceClass = (await get(`/api/v3/PriceClasses/${DEMO_PRICE_CLASS}`)) as { customers: string[] };
    expect(priceClass.customers.length).toBeGreaterThan(0);
    const list = (await get(`/api/v3/PriceLists/${DEMO_PRICE_LIST}`)) as { currencyId: string; entries: Array<{ inventoryId: string; minQuantity: number; priceClassId: string | null }> };
    const boltBreaks = list.entries.filter((e) => e.inventoryId === 'BOLT-M8-40' && !e.priceClassId).map((e) => e.minQuantity);
    expect({ currencyId: list.currencyId, boltBreaks }).toMatchObject({ currencyId: 'NOK', boltBreaks: expect.arrayContaining([100, 1000]) });
    // The seeded orders already hold lines the rules priced.
    const orders = (await get('/api/v3/SalesOrders?expand=lines')) as { value: Array<{ lines: Array<{ hasManualPrice: boolean }> }> };
    expect(orders.value.flatMap((o) => o.lines).some((l) => !l.hasManualPrice)).toBe(true);
  });

  it("prices lines sent without unitPrice by the demo company's rules: 201 on a new order, 202 on lines added", async () => {
    const headers = { ...(await auth.headers({ company: COMPANY, applicationType: null })), 'content-type': 'application/json' };
    const baseUrl = testSystem.system.baseUrl;
    const [member] = ((await (await fetch(`${baseUrl}/api/v3/PriceClasses/${DEMO_PRICE_CLASS}`, { headers })).json()) as { customers: string[] }).customers;
    const created = await fetch(`${baseUrl}/api/v3/SalesOrders`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'SO', customer: { id: member }, currencyId: 'NOK', date: '2026-04-01', orderLines: [{ inventoryId: 'BOLT-M8-40', quantity: 1000 }] }),
    });
    expect(created.status).toBe(201);
    const added = await fetch(`${baseUrl}${created.headers.get('location')}/lines`, {
      method: 'POST',
      headers: { ...headers, 'if-match': created.headers.get('etag')! },
      body: JSON.stringify({ lines: [{ inventoryId: 'WASHER-8', quantity: 100 }, { inventoryId: 'PAINT-W10', quantity: 1 }] }),
    });
    expect(added.status).toBe(202);
    const order = (await (await fetch(`${baseUrl}${created.headers.get('location')}?expand=lines`, { headers })).json()) as {
      lines: Array<{ inventory: { id: string }; quantity: number; unitPrice: number; discountPercent: number; hasManualPrice: boolean }>;
    };
    expect(order.lines.map((l) => ({ item: l.inventory.id, quantity: l.quantity, unitPrice: l.unitPrice, discountPercent: l.discountPercent, hasManualPrice: l.hasManualPrice }))).toEqual([
      // The price class's price (0.42 less 15 %) with its 5 %: level 2 wins over everyone's 1000-break.
      { item: 'BOLT-M8-40', quantity: 1000, unitPrice: 0.357, discountPercent: 5, hasManualPrice: false },
      // Everyone's 100-break (0.04 less 10 %).
      { item: 'WASHER-8', quantity: 100, unitPrice: 0.036, discountPercent: 0, hasManualPrice: false },
      // No break reached: the item's base price in NOK.
      { item: 'PAINT-W10', quantity: 1, unitPrice: 89.9, discountPercent: 0, hasManualPrice: false },
    ]);
  });
});
