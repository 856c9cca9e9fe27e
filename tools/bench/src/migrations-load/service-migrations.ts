import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ClassReference, migrationName } from '@erp/database';

/**
 * A service's migrations, read from `<dir>/src/database.ts` (its `<X>_MIGRATIONS` export) at run
 * time, by path: a tool never imports an app (the module-boundaries lint rule), as deploy-check
 * loads the apps' config classes. Ordered as TypeORM applies them: by the 13-digit timestamp that
 * ends the name (the list in database.ts puts the messaging ones first or last, TypeORM sorts).
 */
export function loadServiceMigrations(rootDir: string, appDir: string): ClassReference[] {
  const file = join(rootDir, appDir, 'src', 'database.ts');
  if (!existsSync(file)) throw new Error(`${appDir}: no src/database.ts`);
  const exports = require(file) as Record<string, unknown>;
  const lists = Object.entries(exports).filter(([name, value]) => name.endsWith('_MIGRATIONS') && Array.isArray(value));
  if (lists.length !== 1) throw new Error(`${appDir}/src/database.ts must export one <X>_MIGRATIONS list (found ${lists.map(([name]) => name).join(', ') || 'none'})`);
  const migrations = lists[0][1] as ClassReference[];
  return [...migrations].sort((a, b) => migrationTimestamp(a) - migrationTimestamp(b));
}

/** The timestamp TypeORM orders by: the last 13 digits of the migration's name. */
export function migrationTimestamp(migration: ClassReference): number {
  const name = migrationName(migration);
  const timestamp = /(\d{13})$/.exec(name)?.[1];
  if (!timestamp) throw new Error(`${name}: a migration's name ends in a 13-digit timestamp`);
  return Number(timestamp);
}

/**
 * Which migrations of a service were in a release: those whose file (`<timestamp>-*.ts` under the
 * app's `src/migrations` or a library's, such as @erp/messaging's) existed at the release's commit.
 * Read with `git ls-tree` from the repository's own history: a clone of the branch carries the
 * release's commit (tags do not travel; releases/releases.json names the commit).
 */
export function releasedMigrations(rootDir: string, appDir: string, commit: string, migrations: ClassReference[]): Set<ClassReference> {
  const files = filesAt(rootDir, commit);
  const places = [appDir, 'libs/[^/]+'].map((dir) => `^${dir.replace(/[.]/g, '\\.')}/src/migrations/`);
  return new Set(
    migrations.filter((migration) => {
      const file = new RegExp(`(${places.join('|')})${migrationTimestamp(migration)}-[^/]+\\.ts$`);
      return files.some((path) => file.test(path));
    }),
  );
}

const treeCache = new Map<string, string[]>();

function filesAt(rootDir: string, commit: string): string[] {
  const key = `${rootDir}@${commit}`;
  let files = treeCache.get(key);
  if (!files) {
    try {
      files = execFileSync('git', ['-C', rootDir, 'ls-tree', '-r', '--name-only', commit], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');
    } catch (error) {
      throw new Error(
        `git ls-tree ${commit} failed: the previous release's commit must be in this clone's history (a shallow clone needs a deeper fetch)`,
        { cause: error },
      );
    }
    treeCache.set(key, files);
  }
  return files;
}
