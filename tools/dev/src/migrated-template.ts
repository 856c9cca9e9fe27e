import { cloneDatabase, ensureTemplateDatabase } from '@erp/database';
import { migrationSourcesHash } from './migration-sources';
import type { ServiceSpec } from './services';

/**
 * A service's database for a test system: a copy of a template that the service's own migrate
 * entry migrated once per test server, instead of an empty database migrated from scratch.
 *
 * Why: an end-to-end run starts the whole system about twenty times, and each start ran five
 * migrate processes (about 1.3 s of CPU each, loading TypeORM and the app) on a 2-core machine;
 * copying a template is a file copy inside PostgreSQL. The migrations themselves still run, through
 * the same entry point, once per template, and each service's integration tests migrate their own
 * databases.
 *
 * The template's name carries a hash of the migration sources, so a changed migration gets a new
 * template on a long-lived server (`DATABASE_URL`); the embedded test server goes away with the run.
 */
export async function migratedCopy(
  serverUrl: string,
  service: ServiceSpec & { database: string },
  database: string,
  migrate: (databaseUrl: string) => Promise<void>,
): Promise<string> {
  const template = `test_tpl_${service.database}_${migrationSourcesHash(service.dir)}`;
  await ensureTemplateDatabase(serverUrl, template, migrate);
  return cloneDatabase(serverUrl, template, database);
}
