import type { PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { currentTenantScope, type TenantScope } from './tenant-scope';
import { COMPANY_SETTING, tenantRoleName } from './tenant-role';

/** What a pooled session is set to: role and company. A new session is the service's own. */
interface SessionBinding {
  role: string;
  companyId: string;
}

const SERVICE_BINDING: SessionBinding = { role: 'none', companyId: '' };

type ObtainConnection = () => Promise<[PoolClient, (error?: Error) => void]>;

const installed = new WeakSet<DataSource>();

/**
 * Makes every connection the DataSource hands out (queries, transactions, query runners, the
 * streamed lists' raw clients) run as the current tenant scope: in a company scope as the
 * database's `<db>_app` role with `app.company_id` set, so the tables' row-level security
 * policies limit it to that company; in the service scope as the connecting (owner) role.
 *
 * One place, no per-query code: the pool's checkout. The binding is session-level and remembered
 * per connection, so it costs one round trip (`SELECT set_config(...)`) only when a connection
 * changes hands between scopes; consecutive requests of one company on a connection cost
 * nothing extra. Set outside any transaction, so no rollback can undo it.
 *
 * Fails when the role is missing: the service's migrations create it (`enableTenantIsolation`).
 */
export async function installTenantBinding(dataSource: DataSource): Promise<{ role: string }> {
  if (!dataSource.isInitialized) throw new Error('installTenantBinding needs an initialised DataSource');
  const [{ database }] = await dataSource.query<Array<{ database: string }>>(`SELECT current_database() AS database`);
  const role = tenantRoleName(database);
  const exists = await dataSource.query<unknown[]>(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
  if (exists.length === 0) {
    throw new Error(
      `Row-level security: role "${role}" does not exist in this cluster; run the service's migrations (enableTenantIsolation)`,
    );
  }
  if (installed.has(dataSource)) return { role };
  installed.add(dataSource);

  // TypeORM's PostgresDriver: every query runner gets its pooled connection here.
  const driver = dataSource.driver as unknown as { obtainMasterConnection: ObtainConnection };
  const obtain: ObtainConnection = driver.obtainMasterConnection.bind(driver);
  const bound = new WeakMap<PoolClient, SessionBinding>();
  driver.obtainMasterConnection = async () => {
    // Read before waiting for the pool: a connection freed by another request hands over in
    // that request's async context.
    const wanted = bindingFor(currentTenantScope(), role);
    const [client, release] = await obtain();
    const current = bound.get(client) ?? SERVICE_BINDING;
    if (current.role !== wanted.role || current.companyId !== wanted.companyId) {
      // The pool took its own 'error' listener off at checkout and TypeORM adds its own only once
      // this returns: without one here, PostgreSQL ending the session during this query (an
      // outage, a restart) emitted an unhandled 'error' and killed the process. The query's
      // rejection below reports the same failure.
      const ignore = () => undefined;
      client.on('error', ignore);
      try {
        await client.query(`SELECT set_config('role', $1, false), set_config($2, $3, false)`, [
          wanted.role,
          COMPANY_SETTING,
          wanted.companyId,
        ]);
      } catch (error) {
        // The session's state is unknown now: the pool discards it.
        release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      } finally {
        client.removeListener('error', ignore);
      }
      bound.set(client, wanted);
    }
    return [client, release];
  };
  return { role };
}

function bindingFor(scope: TenantScope, role: string): SessionBinding {
  return scope.kind === 'company' ? { role, companyId: scope.companyId } : SERVICE_BINDING;
}
