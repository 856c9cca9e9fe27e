import type { DataSource } from 'typeorm';
import { DRIVER_SETTINGS, type TransactionScopedPg } from './transaction-scoped-pg';

/**
 * Checks, before a service serves anything, that its DataSource binds every transaction to the
 * tenant scope (created with `tenantIsolation: true`, see transaction-scoped-pg.ts) and that the
 * role it binds to exists: the service's migrations create it (`enableTenantIsolation`). Returns
 * the role.
 */
export async function verifyTenantBinding(dataSource: DataSource): Promise<{ role: string }> {
  if (!dataSource.isInitialized) throw new Error('verifyTenantBinding needs an initialised DataSource');
  const role = driverSettingsOf(dataSource)?.tenantRole;
  if (!role) throw new Error('Row-level security: this DataSource was created without tenantIsolation: true');
  const exists = await dataSource.query<unknown[]>(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
  if (exists.length === 0) {
    throw new Error(
      `Row-level security: role "${role}" does not exist in this cluster; run the service's migrations (enableTenantIsolation)`,
    );
  }
  return { role };
}

/** The settings of a DataSource made by `dataSourceOptions` (undefined for any other). */
export function driverSettingsOf(dataSource: DataSource): TransactionScopedPg[typeof DRIVER_SETTINGS] | undefined {
  return (dataSource.options as { driver?: Partial<TransactionScopedPg> }).driver?.[DRIVER_SETTINGS];
}
