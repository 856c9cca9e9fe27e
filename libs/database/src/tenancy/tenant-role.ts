import { createHash } from 'node:crypto';

/** PostgreSQL truncates longer identifiers, which would make two names collide silently. */
const MAX_IDENTIFIER_BYTES = 63;

/**
 * `<database><suffix>`: roles are per cluster, hence the database in the name (test runs create
 * many databases on one server). Over-long names keep a prefix and a hash of the whole name.
 */
function databaseRoleName(database: string, suffix: string): string {
  const plain = `${database}${suffix}`;
  if (Buffer.byteLength(plain) <= MAX_IDENTIFIER_BYTES) return plain;
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 12);
  return `${database.slice(0, MAX_IDENTIFIER_BYTES - suffix.length - hash.length - 1)}_${hash}${suffix}`;
}

/**
 * The role a service's request traffic runs as in `database`: `<database>_app`, NOLOGIN, without
 * BYPASSRLS, owning nothing, with no privilege on a company table: it reaches them through the
 * tenant views in the schema of the same name.
 */
export function tenantRoleName(database: string): string {
  return databaseRoleName(database, '_app');
}

/**
 * The role a service's background work runs as in `database` (consumers, the outbox relay,
 * sweepers, webhook deliveries: work that spans companies): `<database>_service`, NOLOGIN, owning
 * nothing, with reads and writes of the service's tables and nothing else: no TRUNCATE, no DDL,
 * no role (enableServiceRoleV1).
 */
export function serviceRoleName(database: string): string {
  return databaseRoleName(database, '_service');
}

/** The setting the tenant views compare `company_id` with (`current_setting('app.company_id', true)`). */
export const COMPANY_SETTING = 'app.company_id';
