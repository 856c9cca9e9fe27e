import { DataSource, type DataSourceOptions } from 'typeorm';
import { tenantBoundPg } from '../tenancy/tenant-bound-pg';
import { tenantRoleName } from '../tenancy/tenant-role';

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
   * Server-side statement_timeout per connection, in ms; 0 disables it. Default 30 s, which is
   * for request traffic: migrations run through `migrateDatabase`, which disables it.
   */
  statementTimeoutMs?: number;
  /**
   * Row-level security per company: every connection runs as the current tenant scope (see
   * tenant-bound-pg.ts). The migrations must have created the role (`enableTenantIsolation`).
   * Default false.
   */
  tenantIsolation?: boolean;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** A database that is down or unreachable fails a connect in this time rather than hanging. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const MIGRATIONS_TABLE_NAME = 'migrations';

/**
 * The DataSource options every service uses: postgres, no synchronize, migrations run explicitly
 * (never on start), migrations table `migrations`, one transaction per migration, bounded connect
 * and statement time, `application_name` set. Extensions are not installed at connect time (the
 * service's role need not be a superuser): a migration creates any extension it needs.
 */
export function dataSourceOptions(config: DataSourceConfig): PostgresDataSourceOptions {
  const statementTimeoutMs = config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
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
    poolSize: config.poolSize ?? DEFAULT_POOL_SIZE,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    // TypeORM's `driver` option: the pg module it uses, here one whose pool binds each checkout.
    ...(config.tenantIsolation ? { driver: tenantBoundPg(tenantRoleName(databaseNameOf(config.url))) } : {}),
    extra: {
      // Passed to pg's Pool and each client's startup packet.
      statement_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: 60_000,
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
