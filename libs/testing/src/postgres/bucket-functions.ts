import type { Client } from 'pg';
import { tenantRoleName } from '@erp/database';

/**
 * Checks of a service's bucket functions against the count cells its triggers write. The widths
 * live only in the schema: a list's query code calls `<x>_id_bucket()`, `<x>_id_bucket_start()` and
 * `<x>_time_bucket_start()`, while the triggers of older migrations compute the same buckets with
 * their own SQL. These helpers read rows placed around bucket starts back through the functions,
 * so that a function cutting other buckets than the triggers fails a test.
 */

/** Ids just before, at and after the starts of id buckets 1 and 2, as `idBucketStart` places them. */
export async function idsAroundBucketStarts(sql: Client, idBucketStart: string): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `SELECT (${idBucketStart}(b) + d)::text AS id FROM generate_series(1, 2) b, unnest(ARRAY[-1, 0, 1]) d ORDER BY 1`,
  );
  return rows.map((r) => r.id);
}

/**
 * Instants (as timestamptz text, to the microsecond) just before, at and after the starts of the
 * time bucket holding `at` and of the next, as `<timeBucket>_start` places them.
 */
export async function instantsAroundBucketStarts(sql: Client, timeBucket: string, at: string): Promise<string[]> {
  const { rows } = await sql.query<{ at: string }>(
    `SELECT (${timeBucket}_start(${timeBucket}($1::timestamptz) + b) + d)::text AS at
     FROM generate_series(0, 1) b, unnest(ARRAY[interval '-1 millisecond', interval '-1 microsecond', interval '0', interval '1 microsecond']) d ORDER BY 1`,
    [at],
  );
  return rows.map((r) => r.at);
}

/** Rows to insert, as the arrays of an `unnest($ids::bigint[], $modified::timestamptz[], $created::timestamptz[])`. */
export interface EdgeRows {
  ids: string[];
  modified: string[];
  created: string[];
}

/**
 * Rows at every id edge (both timestamps `mid`, inside a time bucket) and at every time edge (ids
 * from `farId` up, inside an id bucket; created at the edges in reverse order, so that both
 * timestamps meet every edge).
 */
export function rowsAtEdges(ids: Iterable<string>, instants: string[], mid: string, farId: number): EdgeRows {
  const unique = [...new Set(ids)];
  return {
    ids: [...unique, ...instants.map((_, i) => String(farId + i))],
    modified: [...unique.map(() => mid), ...instants],
    created: [...unique.map(() => mid), ...[...instants].reverse()],
  };
}

/** One bucket dimension of a cells table: the cell's column, the row's, and the function giving a bucket's start. */
export interface CellBucket {
  cell: string;
  row: string;
  start: string;
}

/** A cells table and the rows it counts (aliases `cell` and `r`). */
export interface CountedCells {
  cells: string;
  rows: string;
  /** Columns a row and its cell share, e.g. `company_id`, `status`. */
  same: string[];
  buckets: CellBucket[];
  /** Any further condition tying a row `r` to its cell `cell`, e.g. a name fragment. */
  extra?: string;
}

/**
 * Where the cells and the bucket start functions disagree: each cell (with rows) must count exactly
 * the rows between its buckets' starts and the next buckets' starts, and each row must lie in
 * exactly one cell so read. Empty when the triggers cut the buckets the functions cut.
 */
async function cellsDisagreeingWithStarts(sql: Client, counted: CountedCells): Promise<unknown[]> {
  const inCell = [
    ...counted.same.map((column) => `r.${column} = cell.${column}`),
    ...counted.buckets.map((b) => `r.${b.row} >= ${b.start}(cell.${b.cell}) AND r.${b.row} < ${b.start}(cell.${b.cell} + 1)`),
    ...(counted.extra === undefined ? [] : [counted.extra]),
  ].join(' AND ');
  const cells = await sql.query(
    `SELECT cell.*, k.counted FROM ${counted.cells} cell, LATERAL (SELECT count(*)::int AS counted FROM ${counted.rows} r WHERE ${inCell}) k
     WHERE cell.row_count <> 0 AND k.counted <> cell.row_count`,
  );
  const rows = await sql.query(
    `SELECT r.internal_id, k.cells FROM ${counted.rows} r, LATERAL (SELECT count(*)::int AS cells FROM ${counted.cells} cell WHERE cell.row_count <> 0 AND ${inCell}) k
     WHERE k.cells <> 1`,
  );
  return [...cells.rows, ...rows.rows];
}

/**
 * The values of `column` of `table` that `bucket` puts in a bucket not holding them:
 * `start(bucket(x)) <= x < start(bucket(x) + 1)` must hold for every one.
 */
async function valuesOutsideTheirBucket(sql: Client, table: string, column: string, bucket: string, start: string): Promise<unknown[]> {
  const { rows } = await sql.query(
    `SELECT ${column}::text AS value, ${bucket}(${column}) AS bucket FROM ${table}
     WHERE NOT (${column} >= ${start}(${bucket}(${column})) AND ${column} < ${start}(${bucket}(${column}) + 1))`,
  );
  return rows;
}

/** The functions that the request role of the database may not execute (it reaches them through `public`). */
async function functionsTheRequestRoleCannotCall(sql: Client, functions: string[]): Promise<string[]> {
  const { rows } = await sql.query<{ database: string }>(`SELECT current_database() AS database`);
  const role = tenantRoleName(rows[0].database);
  const refused: string[] = [];
  for (const fn of functions) {
    const { rows: granted } = await sql.query<{ ok: boolean }>(`SELECT has_function_privilege($1, $2, 'EXECUTE') AS ok`, [role, fn]);
    if (!granted[0].ok) refused.push(fn);
  }
  return refused;
}

/** A service's bucket functions and the cells its triggers write, for bucketFunctionDisagreements. */
export interface BucketSchema {
  cells: CountedCells[];
  /** Values that `bucket` must place between `start(bucket(x))` and `start(bucket(x) + 1)`. */
  enclosed: Array<{ table: string; column: string; bucket: string; start: string }>;
  /** The functions the request role calls, with their argument types, e.g. `customer_list_id_bucket(bigint)`. */
  functions: string[];
}

/**
 * Everything where the bucket functions and the triggers' cells disagree (each list empty when
 * none): cells not read back through the start functions, values outside their bucket, and
 * functions the request role may not call.
 */
export async function bucketFunctionDisagreements(sql: Client, schema: BucketSchema): Promise<{ cells: unknown[]; outside: unknown[]; refused: string[] }> {
  const cells: unknown[] = [];
  for (const counted of schema.cells) cells.push(...(await cellsDisagreeingWithStarts(sql, counted)));
  const outside: unknown[] = [];
  for (const e of schema.enclosed) outside.push(...(await valuesOutsideTheirBucket(sql, e.table, e.column, e.bucket, e.start)));
  return { cells, outside, refused: await functionsTheRequestRoleCannotCall(sql, schema.functions) };
}

/** The statement's plan (EXPLAIN VERBOSE, as the first executions plan it: with the parameters' values). */
export async function planOf(sql: Client, query: { text: string; values: unknown[] }): Promise<string> {
  const { rows } = await sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE, FORMAT TEXT) ${query.text}`, query.values);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}
