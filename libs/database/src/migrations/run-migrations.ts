import { type DataSource, MigrationExecutor } from 'typeorm';

import { createDataSource, type DataSourceConfig } from '../data-source/create-data-source';
import { withMigrationLease } from './migration-lease';

/**
 * Applies pending migrations, each in its own transaction, and returns the names of those
 * applied (empty when the schema was current). One runner at a time per database
 * (migration-lease.ts). Initialises the DataSource if needed and leaves it initialised.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  return withMigrationLease(dataSource, async () => {
    const executor = new MigrationExecutor(dataSource);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    return applied.map((migration) => migration.name);
  });
}

/**
 * Creates a DataSource for `config`, applies pending migrations and closes it. This is what the
 * migration Job and `npm run migrate` call. Statements run as sent and have no timeout: a
 * migration may legitimately rewrite a large table, or build an index CONCURRENTLY.
 */
export async function migrateDatabase(config: DataSourceConfig): Promise<string[]> {
  const dataSource = createDataSource({ ...config, purpose: 'migrations', poolSize: config.poolSize ?? 2 });
  try {
    return await runMigrations(dataSource);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}
