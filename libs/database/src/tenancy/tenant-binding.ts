import type { DataSource } from 'typeorm';
import { TENANT_ROLE, type TenantBoundPg } from './tenant-bound-pg';

/**
 * Checks, before a service serves anything, that its DataSource binds every connection to the
 * tenant scope (created with `tenantIsolation: true`, see tenant-bound-pg.ts) and that the role it
 * binds to exists: the service's migrations create it (`enableTenantIsolation`). Returns the role.
 */
export async function verifyTenantBinding(dataSource: DataSource): Promise<{ role: string }> {
  if (!dataSource.isInitialized) throw new Error('verifyTenantBinding needs an initialised DataSource');
  const role = (dataSource.options as { driver?: Partial<TenantBoundPg> }).driver?.[TENANT_ROLE];
  if (!role) throw new Error('Row-level security: this DataSource was created without tenantIsolation: true');
  const exists = await dataSource.query<unknown[]>(`SELECT 1 FROM pg_roles WHERE rolname = $1`, [role]);
  if (exists.length === 0) {
    throw new Error(
      `Row-level security: role "${role}" does not exist in this cluster; run the service's migrations (enableTenantIsolation)`,
    );
  }
  return { role };
}
