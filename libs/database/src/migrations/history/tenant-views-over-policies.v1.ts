import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

// HISTORY: applied migrations ran this code. It never changes (tools/workspace-rules checks its
// hash, with every migration's); a migration that needs other SQL gets a new version beside it.
// Self-contained on purpose, like tenant-views.v1.ts: role, schema and setting written out.
//
// What moves a service walled by row-level security policies (tenant-isolation.v1.ts) to the
// tenant views (tenant-views.v1.ts) in two steps of a rolling upgrade: the expand step adds the
// views beside the policies (enableTenantViewsV1 and, for tables owned through a parent row,
// protectChildTablesByViewsV1); the contract step drops the policies and the request role's
// privileges on the tables (dropTenantPoliciesV1).

const OWN_COMPANY = `company_id = current_setting('app.company_id', true)`;
const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** A table whose rows belong to the company of the row of `parent.table` they reference. */
export interface TenantChildTableV1 {
  table: string;
  parent: { table: string; column: string; parentColumn: string };
}

/** A company table: by its own `company_id`, or through its parent row. */
export type TenantViewTableV1 = string | TenantChildTableV1;

const nameOf = (entry: TenantViewTableV1) => quote(typeof entry === 'string' ? entry : entry.table);

/** `<database>_app`, over 63 bytes a prefix and a hash of the whole name. */
async function roleOf(q: QueryRunner): Promise<string> {
  const [{ database }] = (await q.query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  const plain = `${database}_app`;
  if (Buffer.byteLength(plain) <= 63) return plain;
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 12);
  return `${database.slice(0, 63 - '_app'.length - hash.length - 1)}_${hash}_app`;
}

/**
 * The view of each child table (re)created in the role's schema (enableTenantViewsV1 made it):
 * its rows whose parent row is the bound company's, read through the parent table itself (not
 * its view, so that recreating the parent's view never has to drop this one). The cascaded check
 * option refuses a row pointed at another company's parent.
 */
export async function protectChildTablesByViewsV1(q: QueryRunner, children: TenantChildTableV1[]): Promise<void> {
  const role = quote(await roleOf(q));
  for (const { table, parent } of children) {
    const view = `${role}.${quote(table)}`;
    await q.query(`DROP VIEW IF EXISTS ${view}`);
    await q.query(`
      CREATE VIEW ${view} WITH (check_option = cascaded) AS
      SELECT * FROM public.${quote(table)} x
      WHERE EXISTS (SELECT 1 FROM public.${quote(parent.table)} p
                    WHERE p.${quote(parent.parentColumn)} = x.${quote(parent.column)} AND p.${OWN_COMPANY})`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${view} TO ${role}`);
  }
}

/**
 * The `down` of an expand step over policies: the views and their schema removed, the role and its
 * grants (the policies' form) kept.
 */
export async function dropTenantViewsV1(q: QueryRunner): Promise<void> {
  await q.query(`DROP SCHEMA IF EXISTS ${quote(await roleOf(q))} CASCADE`);
}

/**
 * The contract step: the request role loses every privilege on the tables (the views are its only
 * way in), the policies and row-level security go, and tables created later are no longer granted
 * to it by default (a migration grants what it means to share, as enableTenantViewsV1 does).
 */
export async function dropTenantPoliciesV1(q: QueryRunner, tables: TenantViewTableV1[]): Promise<void> {
  const role = quote(await roleOf(q));
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM ${role}`);
  for (const entry of tables) {
    const table = nameOf(entry);
    // Revoked before the policy goes: the table is never open to the role without one.
    await q.query(`REVOKE ALL ON ${table} FROM ${role}`);
    await q.query(`DROP POLICY IF EXISTS tenant_isolation ON ${table}`);
    await q.query(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
  }
}

/** The `down` of dropTenantPoliciesV1: policies (as tenant-isolation.v1.ts made them), grants and default privileges back. */
export async function restoreTenantPoliciesV1(q: QueryRunner, tables: TenantViewTableV1[]): Promise<void> {
  const role = quote(await roleOf(q));
  for (const entry of tables) {
    const table = nameOf(entry);
    const condition =
      typeof entry === 'string'
        ? OWN_COMPANY
        : `EXISTS (SELECT 1 FROM ${quote(entry.parent.table)} p WHERE p.${quote(entry.parent.parentColumn)} = ${table}.${quote(entry.parent.column)})`;
    await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
    await q.query(`CREATE POLICY tenant_isolation ON ${table} USING (${condition}) WITH CHECK (${condition})`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${table} TO ${role}`);
  }
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`);
}
