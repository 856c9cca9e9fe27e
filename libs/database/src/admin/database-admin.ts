import { Client } from 'pg';

import { serviceRoleName, tenantRoleName } from '../tenancy/tenant-role';
import { assertDatabaseName, databaseNameOf, databaseUrlFor, redactUrl } from './database-url';

const ADMIN_APPLICATION_NAME = 'erp-database-admin';
const CONNECT_TIMEOUT_MS = 5_000;
/** How long a server that answers slowly (connects time out, none refused) is given in all. */
const CONNECT_PATIENCE_MS = 30_000;
/** SQLSTATEs a concurrent CREATE DATABASE of the same name can raise. */
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';
/** "source database template1 is being accessed by other users": transient, worth a retry. */
const OBJECT_IN_USE = '55006';

/**
 * Creates `database` on the server unless it exists and returns its URL. Safe when several
 * processes call it at once for the same name (the losers see the winner's database).
 */
export async function ensureDatabase(serverUrl: string, database: string): Promise<string> {
  assertDatabaseName(database);
  await withAdminClient(serverUrl, async (client) => {
    if (await databaseExists(client, database)) return;
    try {
      await createDatabase(client, `CREATE DATABASE ${client.escapeIdentifier(database)}`);
    } catch (error) {
      const code = sqlStateOf(error);
      if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
    }
  });
  return databaseUrlFor(serverUrl, database);
}

/**
 * Drops `database` if it exists, first terminating every session connected to it, and its roles:
 * the request role `<database>_app` and the service role `<database>_service` (roles are per
 * server; their grants, and the runtime login's membership, go with them).
 */
export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  assertDatabaseName(database);
  if (databaseNameOf(serverUrl) === database) {
    throw new Error(`Refusing to drop "${database}": it is the database the server URL connects to`);
  }
  await withAdminClient(serverUrl, async (client) => {
    const name = client.escapeIdentifier(database);
    const { rows } = await client.query<{ version: string }>(`SHOW server_version_num`);
    if (Number(rows[0]?.version) >= 130_000) {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropRolesOf(client, database);
      return;
    }
    // Before PostgreSQL 13: refuse new connections, terminate the open ones, then drop.
    if (!(await databaseExists(client, database))) return;
    await client.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await client.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    await client.query(`DROP DATABASE IF EXISTS ${name}`);
    await dropRolesOf(client, database);
  });
}

async function dropRolesOf(client: Client, database: string): Promise<void> {
  for (const role of [tenantRoleName(database), serviceRoleName(database)]) {
    await client.query(`DROP ROLE IF EXISTS ${client.escapeIdentifier(role)}`);
  }
}

/**
 * Creates `database` as a copy of `template` (PostgreSQL's `CREATE DATABASE ... TEMPLATE`: a file
 * copy, far cheaper than migrating an empty database) and returns its URL. The copy keeps the
 * template's grants, which name the template's request and service roles; so the copy's own
 * roles (`tenantRoleName(database)`, `serviceRoleName(database)`, the roles its service switches
 * to) are created as members of the template's and inherit exactly those privileges (the tenant
 * views' and none on the tables; the tables' rows and no DDL). Used by tests that start many systems (tools/dev `startTestSystem`).
 */
export async function cloneDatabase(serverUrl: string, template: string, database: string): Promise<string> {
  assertDatabaseName(template);
  assertDatabaseName(database);
  await withAdminClient(serverUrl, async (client) => {
    // A process that just used the template (its migration) may not have left the server yet.
    await createDatabase(client, `CREATE DATABASE ${client.escapeIdentifier(database)} TEMPLATE ${client.escapeIdentifier(template)}`);
    for (const roleName of [tenantRoleName, serviceRoleName]) {
      const templateRole = roleName(template);
      const { rowCount } = await client.query(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [templateRole]);
      if (!rowCount) continue;
      const role = client.escapeIdentifier(roleName(database));
      await client.query(`CREATE ROLE ${role} NOLOGIN NOBYPASSRLS INHERIT IN ROLE ${client.escapeIdentifier(templateRole)}`);
      await client.query(`GRANT ${role} TO CURRENT_USER`);
    }
  });
  // The tenant views live in a schema named as the role (the request scope's search_path names
  // it): the copy's schema takes the copy's role name; its grants, made to the
  // template's role, reach the copy's role through the membership above.
  await withAdminClient(databaseUrlFor(serverUrl, database), async (client) => {
    const templateRole = tenantRoleName(template);
    const { rowCount } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [templateRole]);
    if (rowCount) await client.query(`ALTER SCHEMA ${client.escapeIdentifier(templateRole)} RENAME TO ${client.escapeIdentifier(tenantRoleName(database))}`);
  });
  return databaseUrlFor(serverUrl, database);
}

/** The comment a template gets once `prepare` has finished; a template without it is half-made. */
const PREPARED_TEMPLATE = 'erp: prepared template';

/**
 * Makes sure `template` exists, filled by `prepare(url)` (e.g. a service's migrations) when it does
 * not. Processes doing this at once for the same name queue on an advisory lock, so the template is
 * prepared once. A `prepare` that fails leaves no template behind, and one a killed process left
 * half-made (no completion comment) is made again.
 */
export async function ensureTemplateDatabase(
  serverUrl: string,
  template: string,
  prepare: (templateUrl: string) => Promise<void>,
): Promise<void> {
  assertDatabaseName(template);
  await withAdminClient(serverUrl, async (client) => {
    await client.query(`SELECT pg_advisory_lock(hashtext($1))`, [template]);
    try {
      const { rows } = await client.query<{ note: string | null }>(
        `SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = $1`,
        [template],
      );
      if (rows[0]?.note === PREPARED_TEMPLATE) return;
      if (rows.length > 0) await dropDatabase(serverUrl, template);
      const name = client.escapeIdentifier(template);
      await createDatabase(client, `CREATE DATABASE ${name}`);
      try {
        await prepare(databaseUrlFor(serverUrl, template));
      } catch (error) {
        await dropDatabase(serverUrl, template);
        throw error;
      }
      await client.query(`COMMENT ON DATABASE ${name} IS ${client.escapeLiteral(PREPARED_TEMPLATE)}`);
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtext($1))`, [template]);
    }
  });
}

/**
 * Runs `work` with a short-lived client on `url`. Fails fast when nothing listens there (refused),
 * with the URL (password redacted) in the message. A server that is there but slow to accept (a
 * loaded 2-core CI machine starting a dozen services at once, CI run 46) gets more connects, one
 * every CONNECT_TIMEOUT_MS, until CONNECT_PATIENCE_MS has passed.
 */
export async function withAdminClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = await connectAdminClient(url, Date.now() + CONNECT_PATIENCE_MS);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function connectAdminClient(url: string, deadline: number): Promise<Client> {
  for (;;) {
    const client = new Client({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: ADMIN_APPLICATION_NAME,
    });
    // A server-side disconnect surfaces on the pending query; this keeps it from being unhandled.
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      // pg's own message when connectionTimeoutMillis passes without the server's answer.
      const slow = messageOf(error) === 'timeout expired';
      if (!slow || Date.now() + CONNECT_TIMEOUT_MS > deadline) {
        throw new Error(`Cannot connect to PostgreSQL at ${redactUrl(url)}: ${messageOf(error)}`, {
          cause: error,
        });
      }
    }
  }
}

/**
 * Runs a `CREATE DATABASE`, again while its template (template1 or the one named) is held by another
 * session: PostgreSQL refuses to copy a template with other connections (55006), which is transient.
 */
async function createDatabase(client: Client, statement: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(statement);
      return;
    } catch (error) {
      if (sqlStateOf(error) !== OBJECT_IN_USE || attempt >= 10) throw error;
      await sleep(100 * attempt);
    }
  }
}

async function databaseExists(client: Client, database: string): Promise<boolean> {
  const { rowCount } = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [database]);
  return (rowCount ?? 0) > 0;
}

function sqlStateOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message || error.constructor.name : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
