import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export type CopyValue = string | number | null;

// COPY text format: backslash, tab, newline and carriage return are escaped; \N is NULL.
const SPECIAL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  const text = String(value);
  return SPECIAL.test(text) ? text.replace(SPECIAL, (ch) => ESCAPES[ch]) : text;
}

/** A timestamptz in COPY text format (UTC). */
export function copyTimestamp(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').replace('Z', '')}+00`;
}

/**
 * Streams rows into a table with `COPY ... FROM STDIN` (text format), in chunks of `chunkRows`
 * rows, with back-pressure: memory stays flat whatever the row count.
 */
export async function copyRows(
  client: ClientBase,
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyValue[]>,
  chunkRows = 2000,
): Promise<number> {
  let count = 0;
  function* chunks(): Generator<string> {
    let chunk = '';
    let inChunk = 0;
    for (const row of rows) {
      chunk += row.map(copyField).join('\t') + '\n';
      count++;
      if (++inChunk === chunkRows) {
        yield chunk;
        chunk = '';
        inChunk = 0;
      }
    }
    if (chunk) yield chunk;
  }
  const sink = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(chunks()), sink);
  return count;
}

/**
 * Drops a table's secondary indexes (not the primary key, unique ones or those behind a
 * constraint) and returns their definitions (`pg_get_indexdef`), for a large load to rebuild them
 * afterwards with `rebuildIndexes`: several times faster than maintaining them row by row.
 */
export async function dropSecondaryIndexes(client: ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT x.indisprimary AND NOT x.indisunique
       AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)`,
    [table],
  );
  for (const r of rows) await client.query(`DROP INDEX ${r.name}`);
  return rows.map((r) => r.definition);
}

/** Builds the indexes `dropSecondaryIndexes` dropped, with more sort memory. */
export async function rebuildIndexes(client: ClientBase, definitions: string[]): Promise<void> {
  await client.query(`SET maintenance_work_mem = '256MB'`);
  for (const definition of definitions) await client.query(definition);
  await client.query(`RESET maintenance_work_mem`);
}

/**
 * Runs `copy` with `table`'s secondary indexes dropped when `rebuild` (rebuilt afterwards, see
 * `dropSecondaryIndexes`), and times both.
 */
export async function copyWithIndexesRebuilt<T>(
  client: ClientBase,
  table: string,
  rebuild: boolean,
  log: (line: string) => void,
  copy: () => Promise<T>,
): Promise<{ result: T; copyMillis: number; indexMillis: number }> {
  const definitions = rebuild ? await dropSecondaryIndexes(client, table) : [];
  let started = Date.now();
  const result = await copy();
  const copyMillis = Date.now() - started;
  started = Date.now();
  if (rebuild) {
    log(`rebuilding ${definitions.length} indexes`);
    await rebuildIndexes(client, definitions);
  }
  return { result, copyMillis, indexMillis: rebuild ? Date.now() - started : 0 };
}

/**
 * Sets each company's number counter (`counters`: company_id, last_value) past the largest numeric
 * `column` loaded into `table`, so that POST keeps numbering after the loaded rows.
 */
export async function advanceNumberCounters(client: ClientBase, target: { counters: string; table: string; column: string }, companyIds: string[]): Promise<void> {
  const { counters, table, column } = target;
  for (const companyId of companyIds) {
    await client.query(
      `INSERT INTO ${counters} (company_id, last_value)
       SELECT $1::varchar, max(${column}::bigint) FROM ${table} WHERE company_id = $1::varchar AND ${column} ~ '^[0-9]+$'
       ON CONFLICT (company_id) DO UPDATE SET last_value = GREATEST(${counters}.last_value, EXCLUDED.last_value)`,
      [companyId],
    );
  }
}

/**
 * VACUUM ANALYZE of those of `tables` that exist (count tables come with later migrations):
 * statistics, and the visibility map that index-only scans need. Returns the milliseconds taken.
 */
export async function vacuumAnalyze(client: ClientBase, tables: string[]): Promise<number> {
  const started = Date.now();
  const { rows } = await client.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relname = ANY($1) AND relkind = 'r'`, [tables]);
  const present = new Set(rows.map((r) => r.name));
  for (const table of tables.filter((t) => present.has(t))) await client.query(`VACUUM ANALYZE ${table}`);
  return Date.now() - started;
}
