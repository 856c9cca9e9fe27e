export { databaseNameOf, databaseUrlFor, redactUrl } from './admin/database-url';
export { cloneDatabase, dropDatabase, ensureDatabase, ensureTemplateDatabase } from './admin/database-admin';
export { isMigratedFrom, markMigratedFrom } from './admin/migrated-mark';
export { DEV_RUNTIME_LOGIN, devRuntimePassword, ensureRuntimeLogin, grantRuntimeLogin } from './admin/runtime-login';
export {
  type ClassReference,
  CONNECT_TIMEOUT_MS,
  createDataSource,
  type DataSourceConfig,
  dataSourceOptions,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  MIGRATIONS_TABLE_NAME,
  type PostgresDataSourceOptions,
} from './data-source/create-data-source';
export {
  EMBEDDED_POSTGRES_PASSWORD,
  EMBEDDED_POSTGRES_USER,
  type EmbeddedPostgresHandle,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from './embedded-postgres/embedded-postgres';
export { stopOrphanedEmbeddedPostgres } from './embedded-postgres/stale-postmaster';
export { checkMigrationDrift } from './migrations/migration-drift';
export { MigrationFailedError, migrateDatabase, type MigrationRunOptions, runMigrations } from './migrations/run-migrations';
export { releaseMigrationLease } from './migrations/migration-lease';
export { migrationName, migrationsFor, type MigrationPhase, type MigrationRun, phaseOf } from './migrations/migration-phase';
export { missingExpandMigrations } from './migrations/schema-status';
// Frozen helpers of applied migrations (history: never changed, a new version instead).
export {
  type CountCellTableV1,
  createCountCellsV1,
  createCountTriggersV1,
  dropCountCellsV1,
  dropCountTriggersV1,
  swapIndexConcurrentlyV1,
} from './migrations/history/migration-helpers.v1';
export {
  disableTenantIsolationV1,
  enableTenantIsolationV1,
  protectTenantTablesV1,
  type TenantTableV1,
} from './migrations/history/tenant-isolation.v1';
export { disableTenantViewsV1, enableTenantViewsV1, protectTablesByViewsV1 } from './migrations/history/tenant-views.v1';
export { disableServiceRoleV1, enableServiceRoleV1 } from './migrations/history/service-role.v1';
export {
  dropTenantPoliciesV1,
  dropTenantViewsV1,
  protectChildTablesByViewsV1,
  restoreTenantPoliciesV1,
  type TenantChildTableV1,
  type TenantViewTableV1,
} from './migrations/history/tenant-views-over-policies.v1';
export { addWalledColumnsV1, dropWalledColumnsV1, type WalledTableV1 } from './migrations/history/walled-columns.v1';
export { DatabaseModule, type DatabaseModuleOptions } from './nest/database.module';
export { freePort } from './embedded-postgres/free-port';
export { serverRunAs } from './embedded-postgres/os-user';
export { namedQuery } from './sql/named-query';
export { prepared, PREPARED_MARK, preparedStatementName } from './sql/prepared-statement';
export { updateOrInsert, type UpdateOrInsertStatements } from './sql/update-or-insert';
export { queryRows } from './sql/query-rows';
export {
  type CheckedOutConnection,
  openReadOnlyCursor,
  ReadOnlyCursor,
  type ReadOnlyCursorOptions,
  type RunSql,
  type SqlStatement,
} from './sql/read-only-cursor';
export { isPgInteger, PG_INTEGER_MAX, PG_INTEGER_MIN } from './sql/integer-range';
export { currentTenantScope, runAsCompany, runAsService, type TenantScope } from './tenancy/tenant-scope';
export { COMPANY_SETTING, serviceRoleName, tenantRoleName } from './tenancy/tenant-role';
export { driverSettingsOf, verifyTenantBinding } from './tenancy/tenant-binding';
export {
  DRIVER_SETTINGS,
  type DriverSettings,
  type TransactionSettings,
  transactionScopedClient,
  transactionScopedPg,
} from './tenancy/transaction-scoped-pg';
// The exchange that sends a statement with its settings; bench:binding's floor sends one setting so.
export { type SettingsExchange, WithTransactionSettings } from './tenancy/with-transaction-settings';
export { connectionConfigOf } from './data-source/connection-config';
export { type TenantTable, unprotectedTenantTables } from './tenancy/tenant-tables';
export { TenantScopeInterceptor } from './nest/tenant-scope.interceptor';
export { probeTenantWall, type TenantWallReport } from './tenancy/tenant-wall-probe';
export {
  BackgroundLoop,
  type BackgroundLoopOptions,
  type LoopContext,
  type StepOutcome,
} from './background/background-loop';
export { type ListenOptions } from './background/listen-session';
export { backoffDelay, type BackoffOptions, sleep } from './background/backoff';
export { TimeoutError, withTimeout } from './background/deadline';
