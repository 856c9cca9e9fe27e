import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

// HISTORY: applied migrations ran this code. It never changes (tools/workspace-rules checks its
// hash, with every migration's); a migration that needs other SQL gets a new version beside it.
// Self-contained on purpose: the role name, the schema and the setting are written out here as
// they were when the migrations ran (the live tenantRoleName, the search_path the binding sets and COMPANY_SETTING
// must keep agreeing, which the services' tests of the wall would report).

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
 * The tenant wall as owner-owned views (RELIABILITY.md "Defence in depth"): the request role
 * `<db>_app` (NOLOGIN, no BYPASSRLS, owns nothing) gets no privilege on any company table; it
 * reaches each through a view of the same name in the schema of the same name, which adds
 * `company_id = current_setting('app.company_id', true)` and refuses, through its cascaded check
 * option, a row written for or moved to another company. `shared` tables (no company data of their
 * own: the outbox, processed events) are granted directly. Plain views, not security barriers: the
 * planner merges a query's conditions with the view's, so the trigram indexes stay usable.
 */
export async function enableTenantViewsV1(q: QueryRunner, tables: string[], shared: string[]): Promise<void> {
  const role = quote(await roleOf(q));
  await q.query(`DO $$ BEGIN CREATE ROLE ${role} NOLOGIN NOBYPASSRLS; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
  await q.query(`GRANT ${role} TO CURRENT_USER`);
  await q.query(`CREATE SCHEMA ${role} AUTHORIZATION CURRENT_USER`);
  await q.query(`GRANT USAGE ON SCHEMA ${role} TO ${role}`);
  await q.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  for (const table of shared) await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${quote(table)} TO ${role}`);
  await q.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  await protectTablesByViewsV1(q, tables);
}

/**
 * The view of each table (re)created: for tables a later migration creates, and after a migration
 * adds a column to a walled table (a view's `*` was expanded when it was created). A migration
 * dropping or retyping a column drops the view first (PostgreSQL refuses otherwise) and calls this.
 */
export async function protectTablesByViewsV1(q: QueryRunner, tables: string[]): Promise<void> {
  const role = quote(await roleOf(q));
  for (const table of tables) {
    const view = `${role}.${quote(table)}`;
    await q.query(`DROP VIEW IF EXISTS ${view}`);
    await q.query(`
      CREATE VIEW ${view} WITH (check_option = cascaded) AS
      SELECT * FROM public.${quote(table)} WHERE company_id = current_setting('app.company_id', true)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${view} TO ${role}`);
  }
}

/** The `down` of enableTenantViewsV1: views, schema, grants and the role removed. */
export async function disableTenantViewsV1(q: QueryRunner): Promise<void> {
  const role = quote(await roleOf(q));
  await q.query(`DROP SCHEMA ${role} CASCADE`);
  await q.query(`DROP OWNED BY ${role}`);
  await q.query(`DROP ROLE IF EXISTS ${role}`);
}
