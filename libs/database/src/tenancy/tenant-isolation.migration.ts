import type { QueryRunner } from 'typeorm';
import { MIGRATIONS_TABLE_NAME } from '../data-source/create-data-source';
import { COMPANY_SETTING, tenantRoleName } from './tenant-role';

/**
 * A table whose rows belong to one company: by its own `company_id` column, or (`parent`) by the
 * row of a company-owned table it references, e.g. an invoice's lines through the invoice.
 */
export type TenantTable = string | { table: string; parent: { table: string; column: string; parentColumn: string } };

export const TENANT_POLICY_NAME = 'tenant_isolation';

/** The current company's rows only; '' or unset matches nothing. */
const OWN_COMPANY = `company_id = current_setting('${COMPANY_SETTING}', true)`;

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** `<database>_app`: the role request traffic runs as (see `tenantRoleName`). */
export async function tenantRoleOf(q: QueryRunner): Promise<string> {
  const [{ database }] = (await q.query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  return tenantRoleName(database);
}

/**
 * For a service's migration: creates the database's request role (NOLOGIN, no BYPASSRLS, owns
 * nothing) if missing, lets the migrating role switch to it, grants it DML on every table and
 * sequence (now and, through default privileges, those later migrations create; never the
 * migrations table), and turns on row-level security with a policy per tenant table.
 *
 * Not FORCE: the owner (the role the service connects as) keeps seeing every company, which is
 * what background work, migrations and data fixes need; request traffic is never the owner. The
 * migrating role needs CREATEROLE, or an operator creates the role beforehand.
 */
export async function enableTenantIsolation(q: QueryRunner, tables: TenantTable[]): Promise<void> {
  const role = quote(await tenantRoleOf(q));
  await q.query(`DO $$ BEGIN CREATE ROLE ${role} NOLOGIN NOBYPASSRLS; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
  await q.query(`GRANT ${role} TO CURRENT_USER`);
  await q.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
  await q.query(`REVOKE ALL ON ${quote(MIGRATIONS_TABLE_NAME)} FROM ${role}`);
  await q.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${role}`);
  for (const entry of tables) await protectTable(q, entry);
}

/** Adds row-level security to tables a later migration creates (the role already exists). */
export async function protectTenantTables(q: QueryRunner, tables: TenantTable[]): Promise<void> {
  for (const entry of tables) await protectTable(q, entry);
}

async function protectTable(q: QueryRunner, entry: TenantTable): Promise<void> {
  const table = quote(typeof entry === 'string' ? entry : entry.table);
  const condition =
    typeof entry === 'string'
      ? OWN_COMPANY
      : // The parent's own policy limits the subquery to the current company's parents.
        `EXISTS (SELECT 1 FROM ${quote(entry.parent.table)} p WHERE p.${quote(entry.parent.parentColumn)} = ${table}.${quote(entry.parent.column)})`;
  await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
  await q.query(`CREATE POLICY ${TENANT_POLICY_NAME} ON ${table} USING (${condition}) WITH CHECK (${condition})`);
}

/** The `down` of `enableTenantIsolation`: policies, grants and the role removed. */
export async function disableTenantIsolation(q: QueryRunner, tables: TenantTable[]): Promise<void> {
  for (const entry of tables) {
    const table = quote(typeof entry === 'string' ? entry : entry.table);
    await q.query(`DROP POLICY IF EXISTS ${TENANT_POLICY_NAME} ON ${table}`);
    await q.query(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
  }
  const role = quote(await tenantRoleOf(q));
  // Revokes this database's grants and default privileges of the role, then drops it.
  await q.query(`DROP OWNED BY ${role}`);
  await q.query(`DROP ROLE IF EXISTS ${role}`);
}

/**
 * Tables with a `company_id` column that row-level security does not protect (RLS off or no
 * policy): a service's tests assert this is empty, so a new tenant table cannot be forgotten.
 */
export async function unprotectedTenantTables(query: (text: string) => Promise<Array<{ table: string }>>): Promise<string[]> {
  const rows = await query(
    `SELECT c.relname AS table FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE c.relkind = 'r'
       AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
       AND NOT (c.relrowsecurity AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid))
     ORDER BY 1`,
  );
  return rows.map((row) => row.table);
}
