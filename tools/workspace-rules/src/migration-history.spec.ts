import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { forbiddenImports, HISTORY_RECORD, historyFiles, historyHash } from './migration-history';
import { WORKSPACE_ROOT } from './workspace-projects';

/**
 * Migrations are history (issue 32): once applied somewhere, a migration's SQL never changes, or a
 * database migrated before the change and one migrated after differ. So each migration holds its
 * own SQL, calling at most the frozen, versioned helpers of `libs/database/src/migrations/history`,
 * and the text of every one of those files is recorded here. A changed record means a changed
 * history: write a new migration (or a new helper version) instead. A new file is added to the
 * record with `UPDATE_MIGRATION_HISTORY=1 npx nx test workspace-rules`, which never rewrites an
 * entry already there.
 */
describe('migrations are history', () => {
  const recordPath = path.join(WORKSPACE_ROOT, HISTORY_RECORD);
  const record = JSON.parse(readFileSync(recordPath, 'utf8')) as Record<string, string>;
  const files = historyFiles();

  it('finds the migrations of every service and library, and the frozen helpers', () => {
    expect(files).toEqual(expect.arrayContaining([
      'apps/customers-v1/src/migrations/1763700000000-create-customers.ts',
      'libs/messaging/src/migrations/1763740000000-create-outbox.migration.ts',
      'libs/database/src/migrations/history/migration-helpers.v1.ts',
    ]));
  });

  it('keeps the text of every recorded migration and helper as it was applied', () => {
    const changed = files.filter((file) => record[file] !== undefined && record[file] !== historyHash(file));
    expect(changed).toEqual([]);
  });

  it('records every migration and helper, and forgets none', () => {
    if (process.env['UPDATE_MIGRATION_HISTORY'] === '1') {
      const added = Object.fromEntries(files.filter((file) => record[file] === undefined).map((file) => [file, historyHash(file)]));
      const next = Object.fromEntries(Object.entries({ ...record, ...added }).sort(([a], [b]) => a.localeCompare(b)));
      writeFileSync(recordPath, `${JSON.stringify(next, null, 2)}\n`);
      return;
    }
    expect(files.filter((file) => record[file] === undefined)).toEqual([]);
    // A recorded migration that disappeared was applied somewhere: deleting it rewrites history too.
    expect(Object.keys(record).filter((file) => !files.includes(file))).toEqual([]);
  });

  it('lets a migration import only TypeORM types and frozen helpers', () => {
    expect(files.flatMap(forbiddenImports)).toEqual([]);
  });
});
