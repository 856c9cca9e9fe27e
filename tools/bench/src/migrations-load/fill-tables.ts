import { performance } from 'node:perf_hooks';
import type { Client } from 'pg';
import type { ServiceWorkload } from './workloads';

export interface FilledTable {
  table: string;
  rows: number;
  seconds: number;
  /** The migration after which it was filled (the one that created it). */
  after: string;
}

/** The tables and `table.column`s of schema public as they are now. */
export async function readSchema(client: Client): Promise<Set<string>> {
  const { rows } = await client.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
  );
  return new Set(rows.flatMap((row) => [row.table_name, `${row.table_name}.${row.column_name}`]));
}

/**
 * Fills, to production size, every table of the workload that exists now and is not filled yet,
 * right after the migration that created it: every later migration then meets it at that size,
 * as a production database did when that migration arrived. Vacuumed and analysed after, as
 * autovacuum has long done to a production table (a first scan would otherwise set hint bits
 * and write the table again, which production never pays during a migration).
 */
export async function fillNewTables(
  client: Client,
  workload: ServiceWorkload,
  filled: Set<string>,
  rows: number,
  after: string,
  log: (line: string) => void,
): Promise<FilledTable[]> {
  const schema = await readSchema(client);
  const done: FilledTable[] = [];
  for (const fill of workload.fills) {
    if (filled.has(fill.table) || !schema.has(fill.table) || !(fill.needs ?? []).every((table) => filled.has(table))) continue;
    const started = performance.now();
    let inserted = 0;
    const ownInsert = new RegExp(`^\\s*INSERT INTO ${fill.table}\\b`, 'i');
    for (const statement of fill.sql(rows)) {
      const result = await client.query(statement);
      if (ownInsert.test(statement)) inserted += result.rowCount ?? 0;
    }
    await client.query(`VACUUM (ANALYZE) ${client.escapeIdentifier(fill.table)}`);
    filled.add(fill.table);
    const seconds = round((performance.now() - started) / 1000);
    done.push({ table: fill.table, rows: inserted, seconds, after });
    log(`${workload.service}: ${fill.table} filled with ${inserted} rows in ${seconds} s`);
  }
  return done;
}

/**
 * The tables of schema public the workload says nothing of. A table the bench neither fills nor
 * knows to stay small would meet every later migration empty, and its figures would flatter them:
 * the run refuses it until the workload says which it is.
 */
export async function unclassifiedTables(client: Client, workload: ServiceWorkload): Promise<string[]> {
  const { rows } = await client.query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  const known = new Set([...workload.fills.map((fill) => fill.table), ...Object.keys(workload.bounded)]);
  return rows.map((row) => row.tablename).filter((table) => !known.has(table));
}

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
