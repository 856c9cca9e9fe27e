import { testDatabaseServerUrl } from '@erp/testing';
import { bindingCostTable, runBindingCostBench } from './binding-cost.bench';

/** `npm run bench:binding` at tiny size: the measurement must not rot between full runs. */
describe('bench:binding', () => {
  it('measures each operation through pg Pool and the scoped pool in both scopes', async () => {
    const result = await runBindingCostBench({ databaseUrl: testDatabaseServerUrl(), operations: 20, rounds: 1 });
    expect(Object.keys(result).sort()).toEqual([
      'lone statement: pg Pool (floor)',
      'lone statement: scoped with row-level security, company scope',
      'lone statement: scoped, no row-level security',
      'transaction of 2: pg Pool (floor)',
      'transaction of 2: scoped with row-level security, company scope',
      'transaction of 2: scoped, no row-level security',
    ]);
    for (const cost of Object.values(result)) expect(cost.wallMicros).toBeGreaterThan(0);
    expect(bindingCostTable(result)).toMatch(/^\| lone statement: scoped with row-level security, company scope \| \d+ \| \d+ \| [\d.]+× \| [\d.]+× \|$/m);
  });
});
