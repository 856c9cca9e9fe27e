import { type DynamicModule, Inject, Injectable, Module, type OnModuleInit, type Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

import { type ClassReference, dataSourceOptions } from '../data-source/create-data-source';
import { installTenantBinding } from '../tenancy/tenant-binding';
import { TenantScopeInterceptor } from './tenant-scope.interceptor';

export interface DatabaseModuleOptions {
  url: string;
  entities: ClassReference[];
  migrations: ClassReference[];
  applicationName: string;
  poolSize?: number;
  logging?: boolean;
  /** Connection attempts at start-up, including the first. Default 3. */
  retryAttempts?: number;
  /** Pause between start-up connection attempts, in ms. Default 2000. */
  retryDelayMs?: number;
  /**
   * Row-level security per company: every HTTP handler's database work runs as the database's
   * `<db>_app` role limited to the request's company (the migrations must have called
   * `enableTenantIsolation`). Default false.
   */
  tenantIsolation?: boolean;
}

/** Installs the per-connection tenant binding before the app serves anything. */
@Injectable()
class TenantBindingInstaller implements OnModuleInit {
  constructor(@Inject(getDataSourceToken()) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    await installTenantBinding(this.dataSource);
  }
}

export const DEFAULT_RETRY_ATTEMPTS = 3;
export const DEFAULT_RETRY_DELAY_MS = 2_000;

/**
 * The service's one DataSource, for Nest. Global: any module can `@InjectDataSource()`,
 * `@InjectEntityManager()`, or register repositories with `TypeOrmModule.forFeature([...])`.
 *
 * Start-up policy: a few connection attempts (default 3, 2 s apart, each bounded by the 5 s
 * connect timeout), retried only for connection-level failures, then start-up fails and the
 * process exits non-zero; the orchestrator restarts it with back-off. Once started, losing the
 * database does not stop the service: the pool reconnects per query and `/health/ready`
 * reports not-ready meanwhile. Bad credentials or a missing database fail on the first attempt.
 * Migrations never run here (see `migrateDatabase`).
 */
@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    const { retryAttempts, retryDelayMs, tenantIsolation, ...config } = options;
    const tenancy: Provider[] = tenantIsolation
      ? [TenantBindingInstaller, { provide: APP_INTERCEPTOR, useClass: TenantScopeInterceptor }]
      : [];
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRoot({
          ...dataSourceOptions(config),
          autoLoadEntities: false,
          retryAttempts: retryAttempts ?? DEFAULT_RETRY_ATTEMPTS,
          retryDelay: retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
          toRetry: isTransientConnectionError,
        }),
      ],
      providers: tenancy,
      exports: [TypeOrmModule],
    };
  }
}

/**
 * SQLSTATEs meaning "try again later": admin_shutdown / crash_shutdown (the server is going away),
 * cannot_connect_now (starting up), too_many_connections, connection exceptions.
 */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006']);
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing
 * connections), as opposed to a problem of the statement or the data. Used for start-up retries
 * and by event consumers, which wait for the database instead of spending a message's attempts.
 */
export function isTransientConnectionError(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isTransientConnectionError);
  if (typeof error !== 'object' || error === null) return false;
  // TypeORM's QueryFailedError keeps pg's error as driverError.
  if ('driverError' in error && error.driverError && isTransientConnectionError(error.driverError)) return true;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code && (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable/i.test(message);
}
