import { type DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { type ClassReference, dataSourceOptions } from '../data-source/create-data-source';

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
      exports: [TypeOrmModule],
    };
  }
}

/** SQLSTATEs meaning "try again later": cannot_connect_now (starting up), too_many_connections. */
const TRANSIENT_SQLSTATES = new Set(['57P03', '53300', '08000', '08001', '08003', '08006']);
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

export function isTransientConnectionError(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.some(isTransientConnectionError);
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  if (code && (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  return /timeout exceeded when trying to connect|Connection terminated/i.test(message);
}
