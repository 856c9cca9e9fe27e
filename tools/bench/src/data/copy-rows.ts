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
