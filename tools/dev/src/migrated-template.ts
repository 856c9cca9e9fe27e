import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneDatabase, ensureTemplateDatabase } from '@erp/database';
import { REPO_ROOT } from './paths';
import type { ServiceSpec } from './services';

/** Where the migrations a service's migrate entry applies come from, besides its own `src/migrations`. */
const SHARED_MIGRATION_SOURCES = ['libs/database/src/migrations', 'libs/database/src/tenancy', 'libs/messaging/src/migrations', 'libs/idempotency/src/migrations'];

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

function migrationSourcesHash(serviceDir: string): string {
  const hash = createHash('sha256');
  for (const dir of [join(serviceDir, 'src/migrations'), ...SHARED_MIGRATION_SOURCES]) {
    const files = readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(file.slice(REPO_ROOT.length)).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}
