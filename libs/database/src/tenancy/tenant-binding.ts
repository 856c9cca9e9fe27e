import type { DataSource } from 'typeorm';
import { DRIVER_SETTINGS, type TransactionScopedPg } from './transaction-scoped-pg';

/**
 * Checks, before a service serves anything, that its DataSource binds every transaction to the
 * tenant scope (created with `tenantIsolation: true`, see transaction-scoped-pg.ts) and that the
 * tenant wall it binds to is there: the role and the schema of its views, both named
 * `<db>_app`, which the service's migrations create (`enableTenantViewsV1`). A company scope
 * without the schema would read the tables themselves and fail on every statement. Returns the
 * role.
 */
export async function verifyTenantBinding(dataSource: DataSource): Promise<{ role: string }> {
  if (!dataSource.isInitialized) throw new Error('verifyTenantBinding needs an initialised DataSource');
  const role = driverSettingsOf(dataSource)?.tenantRole;
  if (!role) throw new Error('Tenant wall: this DataSource was created without tenantIsolation: true');
  const [found] = await dataSource.query<Array<{ role: boolean; schema: boolean }>>(
    `SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1) AS role, EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1) AS schema`,
    [role],
  );
  if (!found?.role || !found.schema) {
    const missing = found?.role ? `the schema of its views "${role}" does not exist` : `role "${role}" does not exist in this cluster`;
    throw new Error(`Tenant wall: ${missing}; run the service's migrations (enableTenantViewsV1)`);
  }
  return { role };
}

/** The settings of a DataSource made by `dataSourceOptions` (undefined for any other). */
export function driverSettingsOf(dataSource: DataSource): TransactionScopedPg[typeof DRIVER_SETTINGS] | undefined {
  return (dataSource.options as { driver?: Partial<TransactionScopedPg> }).driver?.[DRIVER_SETTINGS];
}
