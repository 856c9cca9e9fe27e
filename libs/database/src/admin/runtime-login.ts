import { createHmac } from 'node:crypto';
import type { Client } from 'pg';

import { serviceRoleName, tenantRoleName } from '../tenancy/tenant-role';
import { databaseUrlFor } from './database-url';
import { withAdminClient } from './database-admin';

/** Runs one statement and returns its rows. */
type RunQuery = (text: string, values?: unknown[]) => Promise<unknown>;

interface LoginFacts {
  exists: boolean;
  can_login: boolean;
  superuser: boolean;
  create_role: boolean;
  create_db: boolean;
  bypass_rls: boolean;
  replication: boolean;
  inherits: boolean;
  owns_database: boolean;
  owned_objects: number;
  is_current_user: boolean;
  can_become_current_user: boolean;
  server_version: number;
}

/**
 * Makes `login` the runtime login of the current database: a member of the request role `<db>_app`
 * and the service role `<db>_service` that inherits the privileges of neither, so that its session
 * reads nothing until a transaction sets one of the two (transaction-scoped-pg.ts). Refuses a login
 * that could leave that: a superuser, one that creates roles or databases, bypasses row security,
 * replicates, owns the database or anything in it, or is (or can become) the role that migrates.
 * Run by the migration Job (`DATABASE_RUNTIME_LOGIN`) as the owner, after the migrations made both
 * roles; idempotent.
 */
export async function grantRuntimeLogin(databaseUrl: string, login: string): Promise<void> {
  await withAdminClient(databaseUrl, (client) => grantRuntimeLoginWith(rowsOf(client), login));
}

async function grantRuntimeLoginWith(query: RunQuery, login: string): Promise<void> {
  const rows = (await query(
    `SELECT r.oid IS NOT NULL AS exists,
            coalesce(r.rolcanlogin, false) AS can_login, coalesce(r.rolsuper, false) AS superuser,
            coalesce(r.rolcreaterole, false) AS create_role, coalesce(r.rolcreatedb, false) AS create_db,
            coalesce(r.rolbypassrls, false) AS bypass_rls, coalesce(r.rolreplication, false) AS replication,
            coalesce(r.rolinherit, false) AS inherits,
            coalesce((SELECT datdba = r.oid FROM pg_database WHERE datname = current_database()), false) AS owns_database,
            (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) + (SELECT count(*)::int FROM pg_namespace WHERE nspowner = r.oid)
              + (SELECT count(*)::int FROM pg_proc WHERE proowner = r.oid) AS owned_objects,
            coalesce(r.rolname = current_user, false) AS is_current_user,
            coalesce(pg_has_role(r.oid, current_user, 'MEMBER'), false) AS can_become_current_user,
            current_setting('server_version_num')::int AS server_version
     FROM (SELECT 1) one LEFT JOIN pg_roles r ON r.rolname = $1`,
    [login],
  )) as LoginFacts[];
  const facts = rows[0] as LoginFacts;
  const refusals = runtimeLoginRefusals(facts);
  if (refusals.length > 0) throw new Error(`Refusing "${login}" as the runtime login: ${refusals.join('; ')} (docs/platform-teams.md, "Database logins")`);
  const [{ database }] = (await query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  const roles = [tenantRoleName(database), serviceRoleName(database)].map(quoteIdentifier).join(', ');
  // PostgreSQL 16 sets inheritance per grant; before it, the login's NOINHERIT (checked above) does.
  const noInherit = facts.server_version >= 160_000 ? ' WITH INHERIT FALSE' : '';
  await query(`GRANT ${roles} TO ${quoteIdentifier(login)}${noInherit}`);
}

/** Why `facts` do not describe a login the services may connect as (empty when they do). */
function runtimeLoginRefusals(facts: LoginFacts): string[] {
  if (!facts.exists) return ['no such role (create it: CREATE ROLE ... LOGIN NOINHERIT PASSWORD ...)'];
  const refusals: string[] = [];
  if (!facts.can_login) refusals.push('it cannot log in');
  if (facts.superuser) refusals.push('it is a superuser');
  if (facts.create_role) refusals.push('it has CREATEROLE');
  if (facts.create_db) refusals.push('it has CREATEDB');
  if (facts.bypass_rls) refusals.push('it has BYPASSRLS');
  if (facts.replication) refusals.push('it has REPLICATION');
  if (facts.inherits && facts.server_version < 160_000) refusals.push('it inherits its roles (ALTER ROLE ... NOINHERIT)');
  if (facts.owns_database) refusals.push('it owns the database');
  if (facts.owned_objects > 0) refusals.push(`it owns ${facts.owned_objects} object(s) in the database`);
  if (facts.is_current_user) refusals.push('it is the role that migrates');
  else if (facts.can_become_current_user) refusals.push('it can become the role that migrates');
  return refusals;
}

/** The runtime login `npm start` and the tests connect every service as, one per server. */
export const DEV_RUNTIME_LOGIN = 'erp_runtime';

/**
 * The runtime login for `npm start` and the tests (DEV_RUNTIME_LOGIN), created when missing, given
 * its password and granted the two roles of `database`; returns the database's URL with its
 * credentials. One login for every database of the server, as a pooler in front of them all knows
 * one list of logins: its membership of another database's roles gives it nothing here (their
 * privileges are on that database's objects). Production creates one login per service
 * (docs/platform-teams.md).
 *
 * The password is set at every call, not only when the role is created: a cluster kept between
 * `npm start`s (.data/postgres) keeps the role, and a login created by an earlier release (whose
 * password named the embedded server's port, chosen afresh at each start) must work with the
 * password derived now. Callers at once (test workers, a system's services) queue on an advisory
 * lock, so no two update the role's catalog row together ("tuple concurrently updated").
 * `login`: another name than DEV_RUNTIME_LOGIN, for a test that must not touch the shared one.
 */
export async function ensureRuntimeLogin(serverUrl: string, database: string, login = DEV_RUNTIME_LOGIN): Promise<string> {
  const password = devRuntimePassword(serverUrl);
  const url = databaseUrlFor(serverUrl, database);
  // Roles are the server's, advisory locks a database's: every caller takes the lock in the server
  // URL's own database, whichever database it grants.
  await withAdminClient(serverUrl, async (client) => {
    const name = client.escapeIdentifier(login);
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [RUNTIME_LOGIN_LOCK]);
      // A creator that takes no lock (an older release's) may still race: its duplicate is as good.
      await client.query(
        `DO $$ BEGIN CREATE ROLE ${name} LOGIN NOINHERIT; ` + `EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
      );
      await client.query(`ALTER ROLE ${name} PASSWORD ${client.escapeLiteral(password)}`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
  await withAdminClient(url, (client) => grantRuntimeLoginWith(rowsOf(client), login));
  const runtime = new URL(url);
  runtime.username = login;
  runtime.password = encodeURIComponent(password);
  return runtime.toString();
}

/** The advisory lock every ensureRuntimeLogin of a server queues on. */
const RUNTIME_LOGIN_LOCK = 'erp: runtime login';

/**
 * The password ensureRuntimeLogin gives DEV_RUNTIME_LOGIN on `serverUrl`'s server (a pooler's list
 * of logins needs it): derived from the admin's credentials alone, so every caller builds the
 * same URL and nobody who lacks the admin's password can. Not from the address: the embedded server
 * of `npm start` gets a new port at every start on the same cluster, and two callers naming one
 * server differently (`localhost`, `127.0.0.1`) would otherwise set the password in turn.
 */
export function devRuntimePassword(serverUrl: string): string {
  // The admin's credentials, not the URL's text: callers name other databases and hosts.
  const { username, password } = new URL(serverUrl);
  return createHmac('sha256', `${username}:${password}`).update('erp-runtime-login').digest('base64url');
}

function rowsOf(client: Client): RunQuery {
  return (text, values) => client.query(text, values).then((result) => result.rows);
}

function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
