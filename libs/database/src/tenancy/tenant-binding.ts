import type { DataSource } from 'typeorm';
import { DRIVER_SETTINGS, type TransactionScopedPg } from './transaction-scoped-pg';

/** What the start-up check found about the login the service connects as. */
export interface TenantBinding {
  /** `<db>_app`, the role of a company scope. */
  role: string;
  /** `<db>_service`, the role of the service scope. */
  serviceRole: string;
  /**
   * Why the login can reach rows without setting either role (a superuser, an owner of the tables,
   * a login that inherits the service role...): empty for a runtime login as docs/platform-teams.md
   * describes it. Not a refusal: a single-login setup works, it only lacks the second wall.
   */
  privileged: string[];
}

/**
 * Checks, before a service serves anything, that its DataSource binds every transaction to the
 * tenant scope (created with `tenantIsolation: true`, see transaction-scoped-pg.ts) and that the
 * roles it binds to are there and open to its login: `<db>_app` with the schema of its views
 * (`enableTenantViewsV1`) and `<db>_service` (`enableServiceRoleV1`), which the service's
 * migrations create. A company scope without the schema would read the tables themselves and fail
 * on every statement; a missing role fails every transaction.
 */
export async function verifyTenantBinding(dataSource: DataSource): Promise<TenantBinding> {
  if (!dataSource.isInitialized) throw new Error('verifyTenantBinding needs an initialised DataSource');
  const settings = driverSettingsOf(dataSource);
  const role = settings?.tenantRole;
  const serviceRole = settings?.serviceRole;
  if (!role || !serviceRole) throw new Error('Tenant wall: this DataSource was created without tenantIsolation: true');
  // Every statement sets the service role first: a missing role, or one not granted, fails it.
  const [found] = await dataSource.query<Array<LoginState>>(
    `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema,
            to_regrole(quote_ident($1)) IS NOT NULL AS role, to_regrole(quote_ident($2)) IS NOT NULL AS service_role,
            coalesce(pg_has_role(session_user, to_regrole(quote_ident($1)), 'MEMBER'), false) AS joins_role,
            coalesce(pg_has_role(session_user, to_regrole(quote_ident($2)), 'MEMBER'), false) AS joins_service_role,
            r.rolsuper AS superuser, r.rolbypassrls AS bypass_rls, r.rolcreaterole AS create_role,
            coalesce(pg_has_role(session_user, to_regrole(quote_ident($2)), 'USAGE'), false) AS inherits_service_role,
            (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = 'public' AND pg_has_role(session_user, c.relowner, 'USAGE')) AS owned_tables
     FROM pg_roles r WHERE r.rolname = session_user`,
    [role, serviceRole],
  ).catch((error: unknown) => {
    throw new Error(
      `Tenant wall: the service scope cannot run as "${serviceRole}" (${error instanceof Error ? error.message : String(error)}); ` +
        'run the service\'s migrations (enableServiceRoleV1), with DATABASE_RUNTIME_LOGIN naming the login (docs/platform-teams.md, "Database logins")',
      { cause: error },
    );
  });
  if (!found) throw new Error('Tenant wall: the login the service connects as is not a role of this server');
  const missing = [
    found.role ? undefined : `role "${role}" does not exist in this cluster`,
    found.schema ? undefined : `the schema of its views "${role}" does not exist`,
    found.service_role ? undefined : `role "${serviceRole}" does not exist in this cluster`,
  ].filter(Boolean);
  if (missing.length > 0) throw new Error(`Tenant wall: ${missing.join('; ')}; run the service's migrations (enableTenantViewsV1, enableServiceRoleV1)`);
  const notGranted = [found.joins_role ? undefined : role, found.joins_service_role ? undefined : serviceRole].filter(Boolean);
  if (notGranted.length > 0) {
    throw new Error(
      `Tenant wall: the login is not a member of ${notGranted.map((name) => `"${name}"`).join(' and ')}; ` +
        'run the migrations with DATABASE_RUNTIME_LOGIN naming it (docs/platform-teams.md, "Database logins")',
    );
  }
  return { role, serviceRole, privileged: privilegesOf(found) };
}

interface LoginState {
  schema: boolean;
  role: boolean;
  service_role: boolean;
  joins_role: boolean;
  joins_service_role: boolean;
  superuser: boolean;
  bypass_rls: boolean;
  create_role: boolean;
  inherits_service_role: boolean;
  owned_tables: number;
}

function privilegesOf(found: LoginState): string[] {
  return [
    found.superuser ? 'it is a superuser' : undefined,
    found.bypass_rls ? 'it has BYPASSRLS' : undefined,
    found.create_role ? 'it has CREATEROLE' : undefined,
    found.owned_tables > 0 ? `it owns (or inherits the owner of) ${found.owned_tables} object(s) of schema public` : undefined,
    found.inherits_service_role ? 'it inherits the service role' : undefined,
  ].filter((reason): reason is string => reason !== undefined);
}

/** The settings of a DataSource made by `dataSourceOptions` (undefined for any other). */
export function driverSettingsOf(dataSource: DataSource): TransactionScopedPg[typeof DRIVER_SETTINGS] | undefined {
  return (dataSource.options as { driver?: Partial<TransactionScopedPg> }).driver?.[DRIVER_SETTINGS];
}
