import type { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { probeTenantWall, type TenantTable, tenantRoleName, unprotectedTenantTables } from '@erp/database';

/** How the wall refuses a row written for another company: the tenant view's check option. */
const WALL_REFUSAL = '44000';

export interface TenantWallRulesOptions {
  /** The service's own DataSource (read when the tests run, so after the caller's beforeAll). */
  db: () => DataSource;
  /** The service's tenant tables (children with their parent), as its tenant-wall migrations list them. */
  tables: TenantTable[];
  /**
   * Two companies that both have rows in every table by then; for a child table `other` also needs
   * a parent row without children (a copy pointed at it must meet the wall, not a shared key).
   */
  own: string;
  other: string;
}

/**
 * The rules of the tenant wall every service with tenant tables must keep (RELIABILITY.md
 * "Defence in depth"): no table with a company_id column is left outside it, and in a
 * company's scope a query without a company filter sees, updates and deletes that company's rows
 * only, cannot insert rows for the other company, and cannot move a row to it (tables whose rows
 * belong to a parent's company are probed without the move). Call inside the service's describe.
 */
export function describeTenantWallRules(options: TenantWallRulesOptions): void {
  const { own, other } = options;
  describe('tenant wall', () => {
    it('walls every company table (a company_id column, or a parent row with one)', async () => {
      expect(await unprotectedTenantTables((text) => options.db().query(text))).toEqual([]);
    });

    it.each(options.tables.map((entry) => [typeof entry === 'string' ? entry : entry.table, entry] as const))(
      '%s: a query without a company filter neither reads nor changes the other company rows',
      async (_name, entry) => {
        const report = await probeTenantWall(options.db(), entry, { own, other });
        expect(report.rows.own).toBeGreaterThan(0);
        expect(report.rows.other).toBeGreaterThan(0);
        expect(report).toMatchObject({ seen: report.rows.own, seenOfOther: 0, updated: report.rows.own, deleted: report.rows.own });
        expect(report.insertForOther).toBe(WALL_REFUSAL);
        if (typeof entry === 'string') expect(report.moveToOther).toBe(WALL_REFUSAL);
      },
    );
  });
}

/**
 * Runs `work` while the tenant view of `table` admits no row, then puts the view back as it was:
 * what a test needs to show that real requests go through the wall.
 */
export async function whileTenantViewAdmitsNothing<T>(sql: Client, table: string, work: () => Promise<T>): Promise<T> {
  const { rows } = await sql.query<{ database: string }>(`SELECT current_database() AS database`);
  const view = `${sql.escapeIdentifier(tenantRoleName(rows[0].database))}.${sql.escapeIdentifier(table)}`;
  const definition = (await sql.query<{ def: string }>(`SELECT pg_get_viewdef($1::regclass) AS def`, [view])).rows[0].def;
  await sql.query(`CREATE OR REPLACE VIEW ${view} WITH (check_option = cascaded) AS SELECT * FROM public.${sql.escapeIdentifier(table)} WHERE false`);
  try {
    return await work();
  } finally {
    await sql.query(`CREATE OR REPLACE VIEW ${view} WITH (check_option = cascaded) AS ${definition}`);
  }
}
