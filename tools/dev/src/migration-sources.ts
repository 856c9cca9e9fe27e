import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './paths';

/** Where the migrations a service's migrate entry applies come from, besides its own `src/migrations`. */
const SHARED_MIGRATION_SOURCES = ['libs/database/src/migrations', 'libs/database/src/tenancy', 'libs/messaging/src/migrations', 'libs/idempotency/src/migrations'];

/**
 * A hash of every file a service's migrations come from: equal hashes, the same migrations. Names
 * the test templates (migrated-template.ts) and the note `npm start` leaves on a database it
 * migrated (system.ts), so a changed migration is migrated again in both.
 */
export function migrationSourcesHash(serviceDir: string): string {
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
