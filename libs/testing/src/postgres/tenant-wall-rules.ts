import type { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { probeTenantWall, runAsCompany, runAsService, type TenantTable, tenantRoleName, unprotectedTenantTables } from '@erp/database';

/** How the wall refuses a row written for another company: the tenant view's check option. */
const WALL_REFUSAL = '44000';
/** How PostgreSQL refuses what a role has no privilege for. */
const INSUFFICIENT_PRIVILEGE = '42501';

async function sqlStateOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'no error';
}

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
 * belong to a parent's company are probed without the move); and the login the service connects as
 * cannot leave its roles to read them, become the owner, or change the schema. Call inside the
 * service's describe, with the service's own DataSource.
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

    // The service connects as the runtime login (docs/platform-teams.md, "Database logins"): what
    // an injected statement in a request could try, each refused.
    const table = (() => {
      const first = options.tables[0];
      return typeof first === 'string' ? first : first?.table;
    })();
    const inTransaction = <T>(work: (query: (text: string) => Promise<unknown>) => Promise<T>) =>
      options.db().transaction((tx) => work((text) => tx.query(text)));

    it('the runtime login: a request that leaves its role (RESET ROLE, SET ROLE NONE) reads no row of the other company', async () => {
      for (const leave of ['RESET ROLE', 'SET ROLE NONE']) {
        const state = await runAsCompany(own, () =>
          inTransaction(async (query) => {
            await query(leave);
            return sqlStateOf(query(`SELECT 1 FROM public."${table}" WHERE company_id = '${other}'`));
          }),
        );
        expect([leave, state]).toEqual([leave, INSUFFICIENT_PRIVILEGE]);
      }
    });

    it('the runtime login: cannot become the owner of the tables, nor ALTER, DROP, TRUNCATE or CREATE as either of its roles', async () => {
      const [{ owner }] = await options.db().query<Array<{ owner: string }>>(`SELECT tableowner AS owner FROM pg_tables WHERE schemaname = 'public' AND tablename = $1`, [table]);
      const statements = [
        `SET LOCAL ROLE "${owner}"`,
        `ALTER TABLE public."${table}" ADD COLUMN planted int`,
        `DROP TABLE public."${table}"`,
        `TRUNCATE public."${table}"`,
        `CREATE TABLE public.planted (id int)`,
      ];
      for (const [scope, run] of [['company', (work: () => Promise<unknown>) => runAsCompany(own, work)], ['service', runAsService]] as const) {
        for (const statement of statements) {
          const state = await run(() => inTransaction((query) => sqlStateOf(query(statement))));
          expect([scope, statement, state]).toEqual([scope, statement, INSUFFICIENT_PRIVILEGE]);
        }
      }
    });
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
