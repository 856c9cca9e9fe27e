import type { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { probeTenantWall, type TenantTable, tenantRoleName, unprotectedTenantTables } from '@erp/database';

/**
 * How the wall refuses a row written for another company: `42501` from a row-level security
 * policy, `44000` from a tenant view's check option.
 */
const WALL_REFUSALS = ['42501', '44000'];

export interface TenantWallRulesOptions {
  /** The service's own DataSource (read when the tests run, so after the caller's beforeAll). */
  db: () => DataSource;
  /** The service's tenant tables, as its tenant-wall migrations list them. */
  tables: TenantTable[];
  /** Two companies that both have rows in every table by then. */
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
    it('walls every table with a company_id column', async () => {
      expect(await unprotectedTenantTables((text) => options.db().query(text))).toEqual([]);
    });

    it.each(options.tables.map((entry) => [typeof entry === 'string' ? entry : entry.table, entry] as const))(
      '%s: a query without a company filter neither reads nor changes the other company rows',
      async (_name, entry) => {
        const report = await probeTenantWall(options.db(), entry, { own, other });
        expect(report.rows.own).toBeGreaterThan(0);
        expect(report.rows.other).toBeGreaterThan(0);
        expect(report).toMatchObject({ seen: report.rows.own, seenOfOther: 0, updated: report.rows.own, deleted: report.rows.own });
        expect(WALL_REFUSALS).toContain(report.insertForOther);
        if (typeof entry === 'string') expect(WALL_REFUSALS).toContain(report.moveToOther);
      },
    );
  });
}

/**
 * Runs `work` while the tenant view of `table` (the wall's view form) admits no row, then puts the
 * view back as it was: what a test needs to show that real requests go through the wall.
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
