import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

// HISTORY: applied migrations ran this code. It never changes (tools/workspace-rules checks its
// hash, with every migration's); a migration that needs other SQL gets a new version beside it.
// Self-contained on purpose, like tenant-views.v1.ts: the role name is written out here as it was
// when the migrations ran (the live serviceRoleName must keep agreeing, which the services' start-up
// check reports).

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** The tables of the migration runner: the service reads which migrations ran, and writes neither. */
const RUNNER_TABLES = ['migrations', 'migrations_lease'];
const TABLE_RIGHTS = 'SELECT, INSERT, UPDATE, DELETE';
const SEQUENCE_RIGHTS = 'USAGE, SELECT, UPDATE';

/** `<database>_service`, over 63 bytes a prefix and a hash of the whole name. */
async function serviceRoleOf(q: QueryRunner): Promise<string> {
  const [{ database }] = (await q.query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  const plain = `${database}_service`;
  if (Buffer.byteLength(plain) <= 63) return plain;
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 12);
  return `${database.slice(0, 63 - '_service'.length - hash.length - 1)}_${hash}_service`;
}

/**
 * The role a service's background work runs as (consumers, the outbox relay, sweepers, webhook
 * deliveries): `<db>_service`, NOLOGIN, no BYPASSRLS, owning nothing. It reads and writes every
 * table of the schema `public` (and uses its sequences), reads the migration runner's tables, and
 * can do nothing else: no TRUNCATE, no DDL, no role. Tables a later migration creates are granted
 * to it by default (the default privileges of the role that migrates, which creates them). A table
 * under row-level security gets a policy that lets this role see every row, as the owner did.
 *
 * The login the service connects as is made a member of this role and of `<db>_app` and inherits
 * neither (docs/platform-teams.md, "Database logins"): every transaction sets one of the two.
 */
export async function enableServiceRoleV1(q: QueryRunner): Promise<void> {
  const role = quote(await serviceRoleOf(q));
  await q.query(`DO $$ BEGIN CREATE ROLE ${role} NOLOGIN NOBYPASSRLS; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
  // The migrating role sets this role in its own sessions too (a single-login setup, the tests).
  await q.query(`GRANT ${role} TO CURRENT_USER`);
  await q.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await q.query(`GRANT ${TABLE_RIGHTS} ON ALL TABLES IN SCHEMA public TO ${role}`);
  await q.query(`GRANT ${SEQUENCE_RIGHTS} ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ${TABLE_RIGHTS} ON TABLES TO ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT ${SEQUENCE_RIGHTS} ON SEQUENCES TO ${role}`);
  // A table still walled by row-level security (a service between the expand and contract steps
  // of tenant-views-over-policies.v1) would show this role no row, as it showed the owner all.
  const walled = (await q.query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relrowsecurity`,
  )) as Array<{ name: string }>;
  for (const { name } of walled) {
    await q.query(`DROP POLICY IF EXISTS service_role ON public.${quote(name)}`);
    await q.query(`CREATE POLICY service_role ON public.${quote(name)} TO ${role} USING (true) WITH CHECK (true)`);
  }
  for (const table of RUNNER_TABLES) {
    const [found] = (await q.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`public.${table}`])) as Array<{ present: boolean }>;
    if (found?.present) await q.query(`REVOKE INSERT, UPDATE, DELETE ON public.${quote(table)} FROM ${role}`);
  }
}

/** The `down` of enableServiceRoleV1: default privileges, grants and the role removed. */
export async function disableServiceRoleV1(q: QueryRunner): Promise<void> {
  const role = quote(await serviceRoleOf(q));
  // DROP OWNED BY below removes its grants and the policies naming it.
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ${TABLE_RIGHTS} ON TABLES FROM ${role}`);
  await q.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA public REVOKE ${SEQUENCE_RIGHTS} ON SEQUENCES FROM ${role}`);
  await q.query(`DROP OWNED BY ${role}`);
  await q.query(`DROP ROLE IF EXISTS ${role}`);
}
