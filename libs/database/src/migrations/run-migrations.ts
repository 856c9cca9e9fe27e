import { type DataSource, MigrationExecutor, type MigrationInterface, type QueryRunner } from 'typeorm';

import { backoffDelay, sleep } from '../background/backoff';
import { type ClassReference, createDataSource, type DataSourceConfig } from '../data-source/create-data-source';
import { withMigrationLease } from './migration-lease';
import { migrationsFor, type MigrationRun } from './migration-phase';
import { walledViewGaps, WalledViewGapError } from './walled-view-gaps';

export interface MigrationRunOptions {
  /**
   * `all` (default): every pending migration, for a new database and for the contract step after a
   * rollout; `expand`: the expand migrations only, before a rollout (docs/migrations.md).
   */
  run?: MigrationRun;
  /**
   * The longest a migration statement waits for a lock, in ms (default 500). A migration queued
   * behind a long transaction would otherwise hold every later reader and writer of the table
   * behind it; it gives up instead, rolls back, and is tried again (`lockRetries`).
   */
  lockTimeoutMs?: number;
  /** Attempts after a lock timeout before the run fails (default 60, backing off to 10 s: several minutes). */
  lockRetries?: number;
  /** Receives a line per retry. */
  log?: (line: string) => void;
}

/**
 * A migration that failed for good: its name and the database's reason in the message, the
 * driver's error (its `code`) as `cause` and its code copied, so a caller may still tell them apart.
 */
export class MigrationFailedError extends Error {
  readonly code: unknown;

  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MigrationFailedError';
    this.code = (cause as { code?: unknown }).code ?? (cause as { driverError?: { code?: unknown } }).driverError?.code;
  }
}

const LOCK_NOT_AVAILABLE = '55P03';
const DEADLOCK_DETECTED = '40P01';
const DEFAULT_LOCK_TIMEOUT_MS = 500;
const DEFAULT_LOCK_RETRIES = 60;
const RETRY_BACKOFF = { initialMs: 250, maxMs: 10_000 };

/**
 * Applies pending migrations, each in its own transaction, and returns the names of those
 * applied (empty when the schema was current). One runner at a time per database
 * (migration-lease.ts). Every statement of a migration waits at most `lockTimeoutMs` for a lock;
 * a migration that could not have its locks in time (or lost a deadlock) is rolled back and the
 * run tried again after a pause, so a migration never makes the service's traffic queue behind
 * it for long. A run whose result leaves a tenant view without a column of its table is refused
 * (`WalledViewGapError`, naming the fix). Initialises the DataSource if needed and leaves it
 * initialised.
 */
export async function runMigrations(dataSource: DataSource, options: MigrationRunOptions = {}): Promise<string[]> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const retries = options.lockRetries ?? DEFAULT_LOCK_RETRIES;
  return withMigrationLease(dataSource, async () => {
    const applied: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const executor = new MigrationExecutor(dataSource);
      executor.transaction = 'each';
      try {
        applied.push(...(await executor.executePendingMigrations()).map((migration) => migration.name));
      } catch (error) {
        // Each migration commits on its own, so the one that threw is the first still pending.
        const [failed] = await executor.getPendingMigrations().catch(() => []);
        const name = failed?.name ?? 'a migration';
        const code = (error as { code?: unknown }).code ?? (error as { driverError?: { code?: unknown } }).driverError?.code;
        if ((code !== LOCK_NOT_AVAILABLE && code !== DEADLOCK_DETECTED) || attempt > retries) {
          throw new MigrationFailedError(name, error);
        }
        const delay = backoffDelay(attempt, RETRY_BACKOFF);
        options.log?.(`${name} could not take its locks in time (${String(code)}); rolled back, will retry in ${delay} ms (${attempt}/${retries})`);
        await sleep(delay);
        continue;
      }
      // A walled table's view without a column of its table fails every request that uses it.
      const gaps = await walledViewGaps(dataSource);
      if (gaps.length > 0) throw new WalledViewGapError(gaps);
      return applied;
    }
  });
}

/**
 * Creates a DataSource for `config`, applies the pending migrations of the run and closes it. This
 * is what the migration Jobs and `npm start` call (`migrate.ts --phase=expand|contract`).
 * Statements have no statement timeout (a migration may legitimately backfill in batches, or build
 * an index CONCURRENTLY) but a lock timeout (see `runMigrations`).
 */
export async function migrateDatabase(config: DataSourceConfig, options: MigrationRunOptions = {}): Promise<string[]> {
  const migrations = migrationsFor(options.run ?? 'all', config.migrations).map((migration) =>
    withLockTimeout(migration, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS),
  );
  const dataSource = createDataSource({ ...config, migrations, purpose: 'migrations', poolSize: config.poolSize ?? 2 });
  try {
    return await runMigrations(dataSource, options);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

/**
 * The migration with a lock timeout set before its `up`: `SET LOCAL` in its transaction, or for a
 * migration that runs outside one (`transaction = false`: CREATE INDEX CONCURRENTLY) on the session
 * for its duration. A subclass keeps the migration's `name`, which is what TypeORM records, so the
 * migrations table is the same as without it.
 */
function withLockTimeout(migration: ClassReference, lockTimeoutMs: number): ClassReference {
  const Migration = migration as new () => MigrationInterface & { transaction?: boolean };
  const timeout = `${Math.max(1, Math.floor(lockTimeoutMs))}ms`;
  class LockTimed extends Migration {
    override async up(queryRunner: QueryRunner): Promise<void> {
      if (this.transaction === false) {
        await queryRunner.query(`SET lock_timeout = '${timeout}'`);
        try {
          await super.up(queryRunner);
        } finally {
          await queryRunner.query(`RESET lock_timeout`);
        }
        return;
      }
      await queryRunner.query(`SET LOCAL lock_timeout = '${timeout}'`);
      await super.up(queryRunner);
    }
  }
  Object.defineProperty(LockTimed, 'name', { value: Migration.name });
  return LockTimed;
}
