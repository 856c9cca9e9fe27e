import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

// HISTORY: applied migrations ran this code. It never changes (tools/workspace-rules checks its
// hash, with every migration's); a migration that needs other SQL gets a new version beside it.
// Self-contained on purpose: the role name and the setting are written out here as they were
// when the migrations ran (the live code's tenantRoleName and COMPANY_SETTING must keep agreeing,
// which the services' start-up check, verifyTenantBinding, would report).

/** A company-owned table: by its own `company_id`, or (`parent`) through the row it references. */
export type TenantTableV1 = string | { table: string; parent: { table: string; column: string; parentColumn: string } };

const OWN_COMPANY = `company_id = current_setting('app.company_id', true)`;
const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** `<database>_app`, over 63 bytes a prefix and a hash of the whole name. */
async function roleOf(q: QueryRunner): Promise<string> {
  const [{ database }] = (await q.query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  const plain = `${database}_app`;
  if (Buffer.byteLength(plain) <= 63) return plain;
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 12);
  return `${database.slice(0, 63 - '_app'.length - hash.length - 1)}_${hash}_app`;
}

/**
 * The request role (NOLOGIN, no BYPASSRLS, owns nothing) if missing, granted to the migrating
 * role, DML on every table and sequence (and through default privileges those of later
 * migrations; never the migrations table), row-level security with a policy per tenant table.
 */
export async function enableTenantIsolationV1(q: QueryRunner, tables: TenantTableV1[]): Promise<void> {
  const role = quote(await roleOf(q));
  await q.query(`DO $$ BEGIN CREATE ROLE ${role} NOLOGIN NOBYPASSRLS; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
  await q.query(`GRANT ${role} TO CURRENT_USER`);
  await q.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
  await q.query(`REVOKE ALL ON "migrations" FROM ${role}`);
  await q.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${role}`);
  for (const entry of tables) await protectTable(q, entry);
}

/** Row-level security on tables a later migration creates (the role exists). */
export async function protectTenantTablesV1(q: QueryRunner, tables: TenantTableV1[]): Promise<void> {
  for (const entry of tables) await protectTable(q, entry);
}

async function protectTable(q: QueryRunner, entry: TenantTableV1): Promise<void> {
  const table = quote(typeof entry === 'string' ? entry : entry.table);
  const condition =
    typeof entry === 'string'
      ? OWN_COMPANY
      : `EXISTS (SELECT 1 FROM ${quote(entry.parent.table)} p WHERE p.${quote(entry.parent.parentColumn)} = ${table}.${quote(entry.parent.column)})`;
  await q.query(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY`);
  await q.query(`CREATE POLICY tenant_isolation ON ${table} USING (${condition}) WITH CHECK (${condition})`);
}

/** The `down` of enableTenantIsolationV1: policies, grants and the role removed. */
export async function disableTenantIsolationV1(q: QueryRunner, tables: TenantTableV1[]): Promise<void> {
  for (const entry of tables) {
    const table = quote(typeof entry === 'string' ? entry : entry.table);
    await q.query(`DROP POLICY IF EXISTS tenant_isolation ON ${table}`);
    await q.query(`ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`);
  }
  const role = quote(await roleOf(q));
  await q.query(`DROP OWNED BY ${role}`);
  await q.query(`DROP ROLE IF EXISTS ${role}`);
}
