import pg from 'pg';
import { testDatabaseServerUrl } from '@erp/testing';
import { bindingCostTable, ONE_SETTING_VARIANT, runBindingCostBench } from './binding-cost.bench';
import { beginWithOneSetting, loneStatementWithOneSetting } from './one-setting-floor';

/** `npm run bench:binding` at tiny size: the measurement must not rot between full runs. */
describe('bench:binding', () => {
  it('measures each operation through pg Pool, the one-setting floor and the scoped pool in both scopes', async () => {
    const result = await runBindingCostBench({ databaseUrl: testDatabaseServerUrl(), operations: 20, rounds: 1 });
    expect(Object.keys(result).sort()).toEqual([
      `lone statement: ${ONE_SETTING_VARIANT}`,
      'lone statement: pg Pool (floor)',
      'lone statement: scoped with row-level security, company scope',
      'lone statement: scoped, no row-level security',
      `transaction of 2: ${ONE_SETTING_VARIANT}`,
      'transaction of 2: pg Pool (floor)',
      'transaction of 2: scoped with row-level security, company scope',
      'transaction of 2: scoped, no row-level security',
    ]);
    for (const cost of Object.values(result)) expect(cost.wallMicros).toBeGreaterThan(0);
    expect(bindingCostTable(result)).toMatch(/^\| lone statement: scoped with row-level security, company scope \| \d+ \| \d+ \| [\d.]+× \| [\d.]+× \| [\d.]+× \|$/m);
  });

  it('has the one-setting floor really set its setting, for its statement only', async () => {
    const pool = new pg.Pool({ connectionString: testDatabaseServerUrl(), max: 1 });
    try {
      const timeout = `SELECT current_setting('statement_timeout') AS timeout, $1::int AS n`;
      for (let i = 0; i < 2; i++) expect((await loneStatementWithOneSetting(pool, timeout, [i])).rows).toEqual([{ timeout: '30s', n: i }]);
      expect((await pool.query(timeout, [0])).rows[0].timeout).not.toBe('30s');
      const client = await pool.connect();
      try {
        await beginWithOneSetting(client);
        expect((await client.query(timeout, [1])).rows[0].timeout).toBe('30s');
        await client.query('COMMIT');
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
