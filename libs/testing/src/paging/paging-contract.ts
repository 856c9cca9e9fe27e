/**
 * The paging contract of a filtered list, checked page by page against an oracle (the filter's
 * plain SQL, written independently of the service's): every page equals the oracle's slice, every
 * total is exact, and the pages together are the oracle's rows in order, with no overlap or gap.
 * The customers, supplier invoices and sales orders paging tests walk their lists with it.
 */
import type { Client } from 'pg';
import type { RecordingFetch } from '../http/recording-fetch';

/** One page as the test read it: its records' keys, and the total it reported (none on an empty v1 page). */
export interface ReadPage {
  keys: string[];
  total: number | undefined;
}

/** One list with one filter: how to read its pages and what the oracle says they must hold. */
export interface OracleList {
  /** Shown in every failed assertion (the filter's name, the orderBy...). */
  label: Record<string, string>;
  pageSize: number;
  /** The first page's number: 1 for v1 `pageNumber`, 0 for v3 `pageIndex`. */
  firstPage: 0 | 1;
  /** v3 pages report the total even when empty; a v1 page carries it in its records only. */
  emptyPageHasTotal: boolean;
  /** The keys of every matching row, in the list's order, from the current data. */
  expected(): Promise<string[]>;
  read(page: number): Promise<ReadPage>;
}

function totalMatters(list: OracleList, keysOnPage: number): boolean {
  return list.emptyPageHasTotal || keysOnPage > 0;
}

/** Page `page` of the current data equals the oracle's slice, and its total (where it has one) is exact. */
export async function expectPageMatchesOracle(list: OracleList, page: number): Promise<void> {
  const expected = await list.expected();
  const actual = await list.read(page);
  const from = (page - list.firstPage) * list.pageSize;
  const slice = expected.slice(from, from + list.pageSize);
  const label = { ...list.label, page };
  expect({ ...label, keys: actual.keys }).toEqual({ ...label, keys: slice });
  if (totalMatters(list, slice.length)) expect({ ...label, total: actual.total }).toEqual({ ...label, total: expected.length });
}

/** Every page, and the one past the end: each total exact, and together the oracle's rows in order. */
export async function expectWalkMatchesOracle(list: OracleList): Promise<void> {
  const expected = await list.expected();
  const walked: string[] = [];
  const pages = Math.ceil(expected.length / list.pageSize);
  for (let page = list.firstPage; page <= pages + list.firstPage; page++) {
    const { keys, total } = await list.read(page);
    if (totalMatters(list, keys.length)) expect({ ...list.label, page, total }).toEqual({ ...list.label, page, total: expected.length });
    walked.push(...keys);
  }
  expect({ ...list.label, walked }).toEqual({ ...list.label, walked: expected });
}

/** A v1 list with one filter, read over HTTP: `pageNumber` from 1, a bare array whose records carry `metadata.totalCount`. */
export interface V1ListOptions {
  label: Record<string, string>;
  http: RecordingFetch;
  /** e.g. `/v1/customer`. */
  path: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  pageSize: number;
  /** The record's field that names it (`number`, `referenceNumber`). */
  key: string;
  expected(): Promise<string[]>;
}

export function v1OracleList(options: V1ListOptions): OracleList {
  return {
    label: options.label,
    pageSize: options.pageSize,
    firstPage: 1,
    emptyPageHasTotal: false,
    expected: options.expected,
    read: async (pageNumber) => {
      const search = new URLSearchParams({ ...options.query, pageSize: String(options.pageSize), pageNumber: String(pageNumber) });
      const response = await options.http.request(`${options.path}?${search}`, { headers: options.headers });
      expect(response.status).toBe(200);
      const records = (await response.json()) as Array<Record<string, unknown> & { metadata: { totalCount: number } }>;
      return { keys: records.map((r) => String(r[options.key])), total: records[0]?.metadata.totalCount };
    },
  };
}

/** A company's v1 list with one named filter, read through a service by a test holding its database. */
export interface V1FilterListOptions {
  http: RecordingFetch;
  sql: Client;
  companyId: string;
  headers: Record<string, string>;
  filter: { name: string; query: Record<string, string> };
  pageSize: number;
}

/** `v1OracleList` for one named filter, whose oracle `expected` reads the company's rows from `sql`. */
export function v1FilterOracleList(
  options: V1FilterListOptions,
  list: { path: string; key: string; expected: (sql: Client, companyId: string, query: Record<string, string>) => Promise<string[]> },
): OracleList {
  const { filter } = options;
  return v1OracleList({
    ...options,
    label: { filter: filter.name },
    path: list.path,
    query: filter.query,
    key: list.key,
    expected: () => list.expected(options.sql, options.companyId, filter.query),
  });
}

/**
 * The first instant of the time bucket holding `iso`, asked of the schema: `bucketFunction` cuts
 * the count cells' time buckets (e.g. `customer_time_bucket`) and `<bucketFunction>_start` gives a
 * bucket's first instant, so the width is the migrations', not the test's.
 */
export async function timeBucketStart(sql: Client, bucketFunction: string, iso: string): Promise<Date> {
  const { rows } = await sql.query<{ start: Date }>(`SELECT ${bucketFunction}_start(${bucketFunction}($1::timestamptz)) AS start`, [iso]);
  return rows[0].start;
}
