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
 * The runtime login for `npm start` and the tests (DEV_RUNTIME_LOGIN), created when missing and
 * granted the two roles of `database`; returns the database's URL with its credentials. One login
 * for every database of the server, as a pooler in front of them all knows one list of logins:
 * its membership of another database's roles gives it nothing here (their privileges are on that
 * database's objects). Its password is derived from the admin URL, so every caller builds the
 * same URL and nobody who lacks the admin URL can. Production creates one login per service
 * (docs/platform-teams.md).
 */
export async function ensureRuntimeLogin(serverUrl: string, database: string): Promise<string> {
  const password = devRuntimePassword(serverUrl);
  const url = databaseUrlFor(serverUrl, database);
  await withAdminClient(url, async (client) => {
    const name = client.escapeIdentifier(DEV_RUNTIME_LOGIN);
    // Created once with its password, never altered: concurrent callers (test workers) would
    // otherwise update the same catalog row at once. A concurrent creator's duplicate is as good.
    await client.query(
      `DO $$ BEGIN CREATE ROLE ${name} LOGIN NOINHERIT PASSWORD ${client.escapeLiteral(password)}; ` +
        `EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$`,
    );
    await grantRuntimeLoginWith(rowsOf(client), DEV_RUNTIME_LOGIN);
  });
  const runtime = new URL(url);
  runtime.username = DEV_RUNTIME_LOGIN;
  runtime.password = encodeURIComponent(password);
  return runtime.toString();
}

/** The password ensureRuntimeLogin gives DEV_RUNTIME_LOGIN on `serverUrl`'s server (a pooler's list of logins needs it). */
export function devRuntimePassword(serverUrl: string): string {
  // The server and the admin's credentials, not the URL's text: callers name other databases.
  const { username, password, hostname, port } = new URL(serverUrl);
  return createHmac('sha256', `${username}:${password}@${hostname}:${port}`).update('erp-runtime-login').digest('base64url');
}

function rowsOf(client: Client): RunQuery {
  return (text, values) => client.query(text, values).then((result) => result.rows);
}

function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
