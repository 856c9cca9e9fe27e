import type { QueryRunner } from 'typeorm';

// HISTORY: applied migrations ran this code. It never changes (tools/workspace-rules checks its
// hash, with every migration's); a migration that needs other SQL gets a new version beside it.
// Kept as it was before 56c2d9e, which changed what two applied migrations create.

/**
 * Replaces index `name` on `table` by one with `definition`, CONCURRENTLY: built under a new name,
 * then swapped in, so reads and writes go on meanwhile. Only in a migration with
 * `transaction = false`, so nothing rolls back and the migration must be safe to run again from any
 * point it stopped at: a build that failed half-way leaves an invalid index under the new name,
 * which is dropped and built again; a run that stopped after dropping the old index leaves only the
 * valid new one, which is renamed.
 */
export async function swapIndexConcurrentlyV1(q: QueryRunner, table: string, name: string, definition: string): Promise<void> {
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

/** One table of counts: its name, its key columns after `company_id`, and how a source row maps to them. */
export interface CountCellTableV1 {
  name: string;
  /** `[column, type]` of each key column after company_id, in key order. */
  columns: Array<[string, string]>;
  /** The same columns computed from a row of the source table, in the same order. */
  cell: string;
}

const keyColumns = (table: CountCellTableV1) => table.columns.map(([name]) => name).join(', ');

/**
 * Count tables kept exact by statement triggers on `source` (the list cells of supplier invoices
 * and sales orders): each table, `<prefix>_apply()` and `<prefix>_clear()`, the triggers
 * (createCountTriggersV1), and a backfill from the rows already there. The deltas of a statement
 * (plus for new rows, minus for old ones; an update whose cell stays the same cancels out) are
 * grouped and applied in key order, so that concurrent writers lock cells in one order; a delete's
 * cells always exist, so one upsert serves all. In the migration's transaction the first CREATE
 * TRIGGER locks `source` against writes until it commits: no row is both missed by the backfill
 * and written without its trigger.
 */
export async function createCountCellsV1(q: QueryRunner, source: string, prefix: string, tables: CountCellTableV1[]): Promise<void> {
  for (const table of tables) {
    await q.query(`
      CREATE TABLE ${table.name} (
        company_id varchar(64) NOT NULL,
        ${table.columns.map(([name, type]) => `${name} ${type} NOT NULL`).join(',\n        ')},
        row_count integer NOT NULL,
        PRIMARY KEY (company_id, ${keyColumns(table)})
      )`);
  }
  const apply = (table: CountCellTableV1, deltas: (cell: string) => string) => `
      INSERT INTO ${table.name} AS b (company_id, ${keyColumns(table)}, row_count)
      SELECT company_id, ${keyColumns(table)}, sum(delta) FROM (${deltas(`company_id, ${table.cell}`)}) deltas (company_id, ${keyColumns(table)}, delta)
      GROUP BY company_id, ${keyColumns(table)} HAVING sum(delta) <> 0 ORDER BY company_id, ${keyColumns(table)}
      ON CONFLICT (company_id, ${keyColumns(table)}) DO UPDATE SET row_count = b.row_count + EXCLUDED.row_count`;
  const applyAll = (deltas: (cell: string) => string) => tables.map((table) => `${apply(table, deltas)};`).join('\n');
  await q.query(`
    CREATE FUNCTION ${prefix}_apply() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        ${applyAll((cell) => `SELECT ${cell}, 1 FROM new_rows`)}
      ELSIF TG_OP = 'DELETE' THEN
        ${applyAll((cell) => `SELECT ${cell}, -1 FROM old_rows`)}
      ELSE
        ${applyAll((cell) => `SELECT ${cell}, -1 FROM old_rows UNION ALL SELECT ${cell}, 1 FROM new_rows`)}
      END IF;
      RETURN NULL;
    END $$`);
  await q.query(`
    CREATE FUNCTION ${prefix}_clear() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      TRUNCATE ${tables.map((t) => t.name).join(', ')};
      RETURN NULL;
    END $$`);
  await createCountTriggersV1(q, source, prefix, `${prefix}_apply`, `${prefix}_clear`);
  for (const table of tables) {
    await q.query(`
      INSERT INTO ${table.name} (company_id, ${keyColumns(table)}, row_count)
      SELECT company_id, ${table.cell}, count(*) FROM ${source} GROUP BY company_id, ${table.cell}`);
  }
}

/** Undoes createCountCellsV1. */
export async function dropCountCellsV1(q: QueryRunner, source: string, prefix: string, tables: CountCellTableV1[]): Promise<void> {
  await dropCountTriggersV1(q, source, prefix);
  await q.query(`DROP FUNCTION ${prefix}_clear()`);
  await q.query(`DROP FUNCTION ${prefix}_apply()`);
  for (const table of [...tables].reverse()) await q.query(`DROP TABLE ${table.name}`);
}

/**
 * Statement triggers `<prefix>_insert|_update|_delete` on `table` calling `apply()` with transition
 * tables `new_rows` / `old_rows` (kept counts: one grouped change per statement, whatever its size),
 * and `<prefix>_truncate` calling `clear()`.
 */
export async function createCountTriggersV1(q: QueryRunner, table: string, prefix: string, apply: string, clear: string): Promise<void> {
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

/** Undoes createCountTriggersV1. */
export async function dropCountTriggersV1(q: QueryRunner, table: string, prefix: string): Promise<void> {
  for (const event of ['truncate', 'delete', 'update', 'insert']) await q.query(`DROP TRIGGER ${prefix}_${event} ON ${table}`);
}
