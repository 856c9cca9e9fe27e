import type { DataSource } from 'typeorm';
import type { ClassReference } from '../data-source/create-data-source';
import { MIGRATIONS_TABLE_NAME } from '../data-source/create-data-source';
import { migrationName, phaseOf } from './migration-phase';

/**
 * The expand migrations this code needs that the database does not hold yet, by name (oldest
 * first). Contract migrations are not needed: the code runs on the schema before them (that is what
 * makes them contract). Migrations the database holds that the code does not know (a newer
 * release's) are no concern: a newer schema serves the previous release by construction.
 */
export async function missingExpandMigrations(dataSource: DataSource, migrations: ClassReference[]): Promise<string[]> {
  const exists = await dataSource.query<Array<{ present: boolean }>>(`SELECT to_regclass($1) IS NOT NULL AS present`, [MIGRATIONS_TABLE_NAME]);
  const applied = new Set(
    exists[0]?.present ? (await dataSource.query<Array<{ name: string }>>(`SELECT name FROM ${MIGRATIONS_TABLE_NAME}`)).map((row) => row.name) : [],
  );
  return migrations.filter((migration) => phaseOf(migration) === 'expand').map(migrationName).filter((name) => !applied.has(name));
}
