import { DataSource, type DataSourceOptions } from 'typeorm';
import { MigrationRunLogger } from '../migrations/migration-run-logger';
import { transactionScopedPg } from '../tenancy/transaction-scoped-pg';
import { serviceRoleName, tenantRoleName } from '../tenancy/tenant-role';

export type PostgresDataSourceOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

/** A class reference (entity or migration). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export type ClassReference = Function;

export interface DataSourceConfig {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Entity classes, or glob paths to entity files. */
  entities: ClassReference[] | string[];
  /** Migration classes, applied in timestamp order (class names end in a 13-digit timestamp). */
  migrations: ClassReference[];
  /** Shown in pg_stat_activity.application_name, e.g. "sales-orders-v3". */
  applicationName: string;
  /** Maximum pool connections. Default 10. */
  poolSize?: number;
  /** Log every SQL statement (TypeORM logger). Default false. */
  logging?: boolean;
  /**
   * statement_timeout of every transaction, in ms; 0 disables it. Default 30 s, which is for
   * request traffic: migrations run through `migrateDatabase`, which disables it.
   */
  statementTimeoutMs?: number;
  /**
   * The tenant wall: every transaction runs as the current tenant scope (see
   * transaction-scoped-pg.ts): a company's as `<db>_app` behind the tenant views, the service's as
   * `<db>_service`. The migrations must have created both (`enableTenantViewsV1`,
   * `enableServiceRoleV1`). Default false.
   */
  tenantIsolation?: boolean;
  /**
   * A URL of a real server session (DATABASE_SESSION_URL), for LISTEN wake-ups, when `url` is a
   * transaction-mode pooler. Default: `url`.
   */
  sessionUrl?: string;
  /**
   * Lone statements marked `prepared()` run as named prepared statements, planned once per
   * connection (DATABASE_PREPARED_STATEMENTS). Default true; switch it off behind a
   * transaction-mode pooler that does not keep prepared statements (PgBouncer before 1.21, or with
   * `max_prepared_statements = 0`).
   */
  preparedStatements?: boolean;
  /**
   * `service` (default): every statement runs in a transaction that sets its own timeouts and
   * tenant binding (transaction-scoped-pg.ts). `migrations`: statements run as sent (a migration
   * may need `CREATE INDEX CONCURRENTLY`, which no transaction may wrap), with no timeout.
   */
  purpose?: 'service' | 'migrations';
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** A transaction left open by a stuck client ends after this, releasing its locks and its pooler slot. */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** A database that is down or unreachable fails a connect in this time rather than hanging. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const MIGRATIONS_TABLE_NAME = 'migrations';

/**
 * The DataSource options every service uses: postgres, no synchronize, migrations run explicitly
 * (never on start), migrations table `migrations`, one transaction per migration, bounded connect
 * and statement time, `application_name` set. Extensions are not installed at connect time (the
 * service's role need not be a superuser): a migration creates any extension it needs.
 *
 * No startup parameter but `application_name` (which PgBouncer passes on): timeouts and the
 * tenant binding are set per transaction (transaction-scoped-pg.ts), so the same options work
 * straight against PostgreSQL and behind a transaction-mode pooler.
 */
export function dataSourceOptions(config: DataSourceConfig): PostgresDataSourceOptions {
  const forService = (config.purpose ?? 'service') === 'service';
  const driver = forService
    ? transactionScopedPg({
        statementTimeoutMs: config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
        idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_TIMEOUT_MS,
        ...(config.tenantIsolation
          ? { tenantRole: tenantRoleName(databaseNameOf(config.url)), serviceRole: serviceRoleName(databaseNameOf(config.url)) }
          : {}),
        ...(config.sessionUrl ? { sessionUrl: config.sessionUrl } : {}),
        preparedStatements: config.preparedStatements ?? true,
      })
    : undefined;
  return {
    type: 'postgres',
    url: config.url,
    applicationName: config.applicationName,
    entities: config.entities,
    migrations: config.migrations,
    migrationsTableName: MIGRATIONS_TABLE_NAME,
    migrationsTransactionMode: 'each',
    migrationsRun: false,
    synchronize: false,
    dropSchema: false,
    logging: config.logging ?? false,
    // A migration retried after a lock timeout is the runner's to report (run-migrations.ts).
    ...(forService ? {} : { logger: new MigrationRunLogger(config.logging ?? false) }),
    poolSize: config.poolSize ?? DEFAULT_POOL_SIZE,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    // TypeORM's `driver` option: the pg module it uses, here one whose pool binds each transaction.
    ...(driver ? { driver } : {}),
    extra: {
      // pg-pool's own settings; nothing here reaches the server.
      idleTimeoutMillis: 30_000,
      keepAlive: true,
    },
  };
}

/** A configured, not yet initialised DataSource (call `initialize()` or use `runMigrations`). */
export function createDataSource(config: DataSourceConfig): DataSource {
  return new DataSource(dataSourceOptions(config));
}

function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!name) throw new Error('the database URL names no database');
  return name;
}
