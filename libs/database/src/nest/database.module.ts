import { type DynamicModule, Inject, Injectable, Logger, Module, type OnModuleInit, type Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { isTransientConnectionError } from '@erp/errors';
import type { DataSource } from 'typeorm';

import { type ClassReference, dataSourceOptions } from '../data-source/create-data-source';
import { verifyTenantBinding } from '../tenancy/tenant-binding';
import { PoolMetrics } from './pool-metrics';
import { SchemaReadiness, SERVICE_MIGRATIONS } from './schema-readiness';
import { TenantScopeInterceptor } from './tenant-scope.interceptor';

export interface DatabaseModuleOptions {
  url: string;
  entities: ClassReference[];
  migrations: ClassReference[];
  applicationName: string;
  poolSize?: number;
  logging?: boolean;
  /**
   * A URL of a real server session (DATABASE_SESSION_URL) for LISTEN wake-ups, when `url` is a
   * transaction-mode pooler. Default: `url`.
   */
  sessionUrl?: string;
  /** Lone statements marked `prepared()` run prepared, once per connection (DATABASE_PREPARED_STATEMENTS). Default true. */
  preparedStatements?: boolean;
  /** Connection attempts at start-up, including the first. Default 3. */
  retryAttempts?: number;
  /** Pause between start-up connection attempts, in ms. Default 2000. */
  retryDelayMs?: number;
  /**
   * The tenant wall: every HTTP handler's database work runs as the database's `<db>_app` role,
   * through the tenant views limited to the request's company (the migrations must have called
   * `enableTenantViewsV1`). Default false.
   */
  tenantIsolation?: boolean;
}

/**
 * Refuses to start unless every connection is bound to the tenant scope and both its roles exist
 * and are open to the login; warns when the login reaches rows without them (a single login for
 * migrations and service: it works, without the second wall).
 */
@Injectable()
class TenantBindingCheck implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(@Inject(getDataSourceToken()) private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    const { privileged } = await verifyTenantBinding(this.dataSource);
    if (privileged.length > 0) {
      this.logger.warn(
        `The service connects as a login that reaches every company's rows without the tenant wall (${privileged.join('; ')}); ` +
          'connect it as a runtime login that owns nothing (docs/platform-teams.md, "Database logins")',
      );
    }
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
    const { retryAttempts, retryDelayMs, ...config } = options;
    const tenancy: Provider[] = config.tenantIsolation
      ? [TenantBindingCheck, { provide: APP_INTERCEPTOR, useClass: TenantScopeInterceptor }]
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
      // The schema gate: not ready while an expand migration of this code is missing (docs/migrations.md).
      providers: [PoolMetrics, { provide: SERVICE_MIGRATIONS, useValue: config.migrations }, SchemaReadiness, ...tenancy],
      exports: [TypeOrmModule],
    };
  }
}
