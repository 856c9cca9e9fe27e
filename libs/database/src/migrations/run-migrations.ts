import { type DataSource, MigrationExecutor } from 'typeorm';

import { createDataSource, type DataSourceConfig } from '../data-source/create-data-source';

/**
 * Session advisory lock held while migrating, so two runners against one database (a deploy Job
 * racing a developer, parallel test workers) apply each migration once. Advisory locks are
 * per database, so services never wait for each other.
 */
const MIGRATION_LOCK_KEY = 7_301_954_216;

/**
 * Applies pending migrations, each in its own transaction, and returns the names of those
 * applied (empty when the schema was current). Initialises the DataSource if needed and leaves
 * it initialised.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const lockRunner = dataSource.createQueryRunner();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      // On the lock's own session, so a pool of one connection cannot deadlock.
      const executor = new MigrationExecutor(dataSource, lockRunner);
      executor.transaction = 'each';
      const applied = await executor.executePendingMigrations();
      return applied.map((migration) => migration.name);
    } finally {
      // If the session broke, the server already released its lock; keep the original error.
      await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await lockRunner.release();
  }
}

/**
 * Creates a DataSource for `config`, applies pending migrations and closes it. This is what the
 * migration Job and `npm run migrate` call. Statements have no timeout here unless one is given:
 * a migration may legitimately rewrite a large table.
 */
export async function migrateDatabase(config: DataSourceConfig): Promise<string[]> {
  const dataSource = createDataSource({
    ...config,
    statementTimeoutMs: config.statementTimeoutMs ?? 0,
    poolSize: config.poolSize ?? 2,
  });
  try {
    return await runMigrations(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}
