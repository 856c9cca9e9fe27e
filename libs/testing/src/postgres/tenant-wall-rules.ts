import type { DataSource } from 'typeorm';
import { probeTenantWall, type TenantTable, unprotectedTenantTables } from '@erp/database';

export interface TenantWallRulesOptions {
  /** The service's own DataSource (read when the tests run, so after the caller's beforeAll). */
  db: () => DataSource;
  /** The service's tenant tables, as its row-level-security migration lists them. */
  tables: TenantTable[];
  /** Two companies that both have rows in every table by then. */
  own: string;
  other: string;
}

/**
 * The row-level security rules every service with tenant tables must keep (RELIABILITY.md
 * "Defence in depth"): no table with a company_id column is left without a policy, and in a
 * company's scope a query without a company filter sees, updates and deletes that company's rows
 * only, cannot insert rows for the other company, and cannot move a row to it (tables whose rows
 * belong to a parent's company are probed without the move). Call inside the service's describe.
 */
export function describeTenantWallRules(options: TenantWallRulesOptions): void {
  const { own, other } = options;
  describe('tenant wall (row-level security)', () => {
    it('protects every table with a company_id column', async () => {
      expect(await unprotectedTenantTables((text) => options.db().query(text))).toEqual([]);
    });

    it.each(options.tables.map((entry) => [typeof entry === 'string' ? entry : entry.table, entry] as const))(
      '%s: a query without a company filter neither reads nor changes the other company rows',
      async (_name, entry) => {
        const report = await probeTenantWall(options.db(), entry, { own, other });
        expect(report.rows.own).toBeGreaterThan(0);
        expect(report.rows.other).toBeGreaterThan(0);
        expect(report).toMatchObject({
          seen: report.rows.own,
          seenOfOther: 0,
          updated: report.rows.own,
          deleted: report.rows.own,
          insertForOther: '42501',
        });
        if (typeof entry === 'string') expect(report.moveToOther).toBe('42501');
      },
    );
  });
}
