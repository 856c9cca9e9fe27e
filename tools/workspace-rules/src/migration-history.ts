import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WORKSPACE_ROOT } from './workspace-projects';

/** Where applied migrations and the frozen helpers they call live, relative to the workspace. */
const HISTORY_DIRS = [
  ...readdirSync(path.join(WORKSPACE_ROOT, 'apps')).map((app) => `apps/${app}/src/migrations`),
  'libs/messaging/src/migrations',
  'libs/idempotency/src/migrations',
  'libs/database/src/migrations/history',
];

/** The record of every migration and frozen helper, with the hash of its text. */
export const HISTORY_RECORD = 'tools/workspace-rules/src/migration-history.json';

/** Every migration file and frozen helper (specs aside), by workspace-relative path. */
export function historyFiles(): string[] {
  return HISTORY_DIRS.flatMap((dir) => {
    const absolute = path.join(WORKSPACE_ROOT, dir);
    let names: string[];
    try {
      names = readdirSync(absolute);
    } catch {
      return [];
    }
    return names.filter((name) => name.endsWith('.ts') && !/\.(int-)?spec\.ts$/.test(name)).map((name) => `${dir}/${name}`);
  }).sort();
}

/** sha256 of a file's text, with line endings normalised (a checkout's CRLF is not a change). */
export function historyHash(file: string): string {
  const text = readFileSync(path.join(WORKSPACE_ROOT, file), 'utf8').replace(/\r\n/g, '\n');
  return createHash('sha256').update(text).digest('hex');
}

/** What a migration may import: TypeORM's types, and the frozen (versioned) helpers of @erp/database. */
export function forbiddenImports(file: string): string[] {
  const text = readFileSync(path.join(WORKSPACE_ROOT, file), 'utf8');
  const problems: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    const [, typeOnly, names = '', from = ''] = match;
    if (from === 'typeorm' && typeOnly) continue;
    if (from === 'node:crypto' && file.includes('/history/')) continue;
    if (from === '@erp/database') {
      const live = names.split(',').map((name) => name.trim().replace(/^type\s+/, '')).filter((name) => name && !/V\d+$/.test(name));
      if (live.length === 0) continue;
      problems.push(`${file}: imports live code ${live.join(', ')} from @erp/database (only frozen, versioned helpers: ...V1)`);
      continue;
    }
    problems.push(`${file}: imports ${from} (a migration holds its own SQL)`);
  }
  return problems;
}
