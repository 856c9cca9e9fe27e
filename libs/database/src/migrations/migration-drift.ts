import type { DataSource } from 'typeorm';

/**
 * The SQL TypeORM's schema builder would run to make the database match the entities, without
 * running it. Run the migrations first: an empty array then means the migrations and the
 * entities agree; anything else is a change some migration is missing. Initialises the
 * DataSource if needed and leaves it initialised.
 */
export async function checkMigrationDrift(dataSource: DataSource): Promise<string[]> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const sql = await dataSource.driver.createSchemaBuilder().log();
  return sql.upQueries.map((query) => query.query);
}
