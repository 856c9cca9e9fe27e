import pg, { type PoolClient } from 'pg';
import { currentTenantScope, type TenantScope } from './tenant-scope';
import { COMPANY_SETTING } from './tenant-role';

/** What a pooled session is set to: role and company. A new session is the service's own. */
interface SessionBinding {
  role: string;
  companyId: string;
}

const SERVICE_BINDING: SessionBinding = { role: 'none', companyId: '' };

/** Marks the pg module a DataSource was given, so start-up can check that binding is on. */
export const TENANT_ROLE = Symbol.for('@erp/database:tenant-role');

export type TenantBoundPg = typeof pg & { [TENANT_ROLE]: string };

type ConnectCallback = (error: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * The `pg` module with a Pool whose every checkout runs as the current tenant scope, for
 * TypeORM's documented `driver` option (the pg module it uses; `dataSourceOptions` passes it
 * when `tenantIsolation` is on). Queries, transactions, query runners and the streamed lists'
 * raw clients all take their connection from this pool.
 *
 * In a company scope a session runs as `role` (the database's `<db>_app`, under row-level
 * security) with `app.company_id` set; in the service scope as the connecting (owner) role. The
 * binding is session-level and remembered per connection, so it costs one round trip
 * (`SELECT set_config(...)`) only when a connection changes hands between scopes; consecutive
 * requests of one company on a connection cost nothing extra. Set outside any transaction, so no
 * rollback can undo it.
 */
export function tenantBoundPg(role: string): TenantBoundPg {
  class TenantBoundPool extends pg.Pool {
    private readonly bindings = new WeakMap<PoolClient, SessionBinding>();

    override connect(): Promise<PoolClient>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<PoolClient> | void {
      // Read before waiting for the pool: a connection freed by another request hands over in
      // that request's async context.
      const wanted = bindingFor(currentTenantScope(), role);
      const bound = super.connect().then((client) => this.bind(client, wanted));
      if (!callback) return bound;
      bound.then(
        (client) => callback(undefined, client, (release) => client.release(release as Error | boolean | undefined)),
        (error: Error) => callback(error, undefined, () => undefined),
      );
    }

    private async bind(client: PoolClient, wanted: SessionBinding): Promise<PoolClient> {
      const current = this.bindings.get(client) ?? SERVICE_BINDING;
      if (current.role === wanted.role && current.companyId === wanted.companyId) return client;
      // The pool takes its own 'error' listener off at checkout and TypeORM adds its own only
      // after this: without one here, PostgreSQL ending the session during this query (an
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
        client.release(error instanceof Error ? error : new Error(String(error)));
        throw error;
      } finally {
        client.removeListener('error', ignore);
      }
      this.bindings.set(client, wanted);
      return client;
    }
  }
  return Object.assign(Object.create(pg) as typeof pg, pg, { Pool: TenantBoundPool, [TENANT_ROLE]: role });
}

function bindingFor(scope: TenantScope, role: string): SessionBinding {
  return scope.kind === 'company' ? { role, companyId: scope.companyId } : SERVICE_BINDING;
}
