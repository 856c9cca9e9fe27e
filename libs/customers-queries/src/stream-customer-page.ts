import type { Readable } from 'node:stream';
import { type CheckedOutConnection, openReadOnlyCursor } from '@erp/database';
import { v1PageChunks } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { isNameCountedListQuery, nameFragment } from './customer-name-counts.queries';
import { customerPageStatement, type NameCountObserver } from './read-customer-page';
import type { SqlQuery } from './customers.queries';

/** Rows fetched per round trip of the cursor: a customer is about 700 bytes of JSON. */
export const STREAM_BATCH_ROWS = 250;

/**
 * Pages of at least this many rows are streamed (streamCustomerPage). A cursor costs round
 * trips: a page of 100 took 2.8 ms streamed against 1.5 ms as text (readCustomerPage, measured
 * in-process at 1M customers), while its 70 KB cost the service's memory nothing worth saving.
 */
export const STREAM_MIN_PAGE_SIZE = 500;

/** A connection of its own for the cursor, and how to give it back (once). */
export type StreamConnection = () => Promise<CheckedOutConnection>;

/**
 * One page of the v1 list, as the body's chunks while the statement's cursor still runs, for the
 * pages of at least STREAM_MIN_PAGE_SIZE rows that one statement answers (customerPageStatement):
 * the same bytes as readCustomerPage.
 *
 * Why: a page of 1,000 customers is 690 KB of JSON. Built as one string (and its 1,000 rows as
 * strings before it), pages of a full sync took customers-v1 to a 390 MiB peak; streamed, the
 * service holds one batch of rows (212 MiB). It is not faster: the cursor's round trips cost about
 * what the overlap of database, service, gateway and client saves (BENCHMARKS.md, "Filtered paging
 * after name counts").
 *
 * Undefined for any other request (a smaller page, a filter counted from the rows; no connection
 * is taken) and when the statement returned no row (a page past the end, or a name the company
 * keeps no counts of): the caller then reads the page with readCustomerPage, which counts. The
 * cursor, its read-only transaction and the connection are @erp/database's `openReadOnlyCursor`:
 * released once, however the stream ends.
 */
export async function streamCustomerPage(
  connect: StreamConnection,
  companyId: string,
  query: CustomerListQuery,
  names?: NameCountObserver,
): Promise<Readable | undefined> {
  const statement = query.page.pageSize >= STREAM_MIN_PAGE_SIZE ? customerPageStatement(companyId, query) : undefined;
  if (!statement) return undefined;
  const { cursor } = await openReadOnlyCursor<PageRow, { statement: SqlQuery }>(await connect(), { batchRows: STREAM_BATCH_ROWS }, async () => ({ statement }));
  const first = await cursor.first();
  if (first === undefined) {
    await cursor.close();
    return undefined;
  }
  if (isNameCountedListQuery(query) && query.name !== undefined) names?.counted(companyId, nameFragment(query.name));
  return cursor.body(v1PageChunks(records(first, cursor.rows()), first.total, query.page.maxPageSize));
}

/** A row of the page statement: the page's total in every row, and the record's JSON. */
interface PageRow {
  total: number;
  json: string;
}

async function* records(first: PageRow, rest: AsyncIterable<PageRow>): AsyncGenerator<string> {
  yield first.json;
  for await (const row of rest) yield row.json;
}
