import { TestAuth } from '@erp/testing';
import { seedCompany } from './seed-data';
import { demoInventoryItems } from './seed-sales-orders';
import { startTestSystem, type TestSystem } from './test-system';

const COMPANY = '7000007';
const auth = new TestAuth();
let testSystem: TestSystem;

/** The dev seed against the whole system: its orders name items it created first, as the README's examples do. */
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
});
