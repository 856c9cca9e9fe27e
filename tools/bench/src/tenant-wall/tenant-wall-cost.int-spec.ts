import { testDatabaseServerUrl } from '@erp/testing';
import { runTenantWallCostBench, tenantWallCostTable } from './tenant-wall-cost.bench';

/** `npm run bench:wall` at tiny size: the measurement must not rot between full runs. */
describe('bench:wall', () => {
  it('times both searching lists, page 1 and the last page, through the tables and through the tenant views', async () => {
    const cases = await runTenantWallCostBench({ serverUrl: testDatabaseServerUrl(), customers: 300, orders: 200, samples: 3, log: () => undefined });
    expect(cases.map((c) => c.name.replace(/page \d+$/, 'page N'))).toEqual([
      'customers: name=bygg page N',
      'customers: name=bygg page N',
      'customers: name=bygg&status=Active page N',
      'customers: name=bygg&status=Active page N',
      'customers: write one customer (its triggers keep 3 count tables)',
      'orders: filter=bygg page N',
      'orders: filter=bygg page N',
      'orders: filter=1234 page N',
      'orders: filter=1234 page N',
      'orders: write one order (its triggers keep the cells and the search text)',
    ]);
    for (const c of cases) expect(c.tablesMs * c.viewsMs).toBeGreaterThan(0);
    expect(tenantWallCostTable(cases)).toMatch(/^\| orders: filter=bygg page 1 \| [\d.]+ \| [\d.]+ \| [\d.]+x \|$/m);
  }, 120_000);
});
