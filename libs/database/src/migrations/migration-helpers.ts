import type { QueryRunner } from 'typeorm';

// Applied migrations call these: change them only in ways that leave what they create the same.

/**
 * Replaces index `name` on `table` by one with `definition`, CONCURRENTLY: built under a new name,
 * then swapped in, so reads and writes go on meanwhile. Only in a migration with
 * `transaction = false`, so nothing rolls back and the migration must be safe to run again from any
 * point it stopped at: a build that failed half-way leaves an invalid index under the new name,
 * which is dropped and built again; a run that stopped after dropping the old index leaves only the
 * valid new one, which is renamed.
 */
export async function swapIndexConcurrently(q: QueryRunner, table: string, name: string, definition: string): Promise<void> {
  const next = `${name}_next`;
  const [state] = (await q.query(
    `SELECT to_regclass($1) IS NOT NULL AS current,
            coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($2)), false) AS next_built`,
    [name, next],
  )) as Array<{ current: boolean; next_built: boolean }>;
  if (!state.current && state.next_built) {
    await q.query(`ALTER INDEX ${next} RENAME TO ${name}`);
    return;
  }
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${next}`);
  await q.query(`CREATE INDEX CONCURRENTLY ${next} ON ${table} ${definition}`);
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  await q.query(`ALTER INDEX ${next} RENAME TO ${name}`);
}

/**
 * Statement triggers `<prefix>_insert|_update|_delete` on `table` calling `apply()` with transition
 * tables `new_rows` / `old_rows` (kept counts: one grouped change per statement, whatever its size),
 * and `<prefix>_truncate` calling `clear()`.
 */
export async function createCountTriggers(q: QueryRunner, table: string, prefix: string, apply: string, clear: string): Promise<void> {
  await q.query(`
    CREATE TRIGGER ${prefix}_insert AFTER INSERT ON ${table}
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${apply}()`);
  await q.query(`
    CREATE TRIGGER ${prefix}_update AFTER UPDATE ON ${table}
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${apply}()`);
  await q.query(`
    CREATE TRIGGER ${prefix}_delete AFTER DELETE ON ${table}
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${apply}()`);
  await q.query(`CREATE TRIGGER ${prefix}_truncate AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${clear}()`);
}

/** Undoes createCountTriggers. */
export async function dropCountTriggers(q: QueryRunner, table: string, prefix: string): Promise<void> {
  for (const event of ['truncate', 'delete', 'update', 'insert']) await q.query(`DROP TRIGGER ${prefix}_${event} ON ${table}`);
}
