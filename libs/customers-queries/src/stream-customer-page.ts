import { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import QueryStream from 'pg-query-stream';
import { endReadTransaction } from '@erp/database';
import { v1PageChunks } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { isNameCountedListQuery, nameFragment } from './customer-name-counts.queries';
import { customerPageStatement, type NameCountObserver } from './read-customer-page';

/** Rows fetched per round trip of the cursor: a customer is about 700 bytes of JSON. */
export const STREAM_BATCH_ROWS = 250;

/**
 * Pages of at least this many rows are streamed (streamCustomerPage). A cursor costs round
 * trips: a page of 100 took 2.8 ms streamed against 1.5 ms as text (readCustomerPage, measured
 * in-process at 1M customers), while its 70 KB cost the service's memory nothing worth saving.
 */
export const STREAM_MIN_PAGE_SIZE = 500;

/** A connection of its own for the cursor, and how to give it back (once). */
export type StreamConnection = () => Promise<{ client: ClientBase; release: (error?: Error) => void }>;

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
 * connection is released once, however the stream ends; an error after the first chunk can only
 * cut the body short (the status line is sent), never make a wrong page.
 */
export async function streamCustomerPage(
  connect: StreamConnection,
  companyId: string,
  query: CustomerListQuery,
  names?: NameCountObserver,
): Promise<Readable | undefined> {
  const statement = query.page.pageSize >= STREAM_MIN_PAGE_SIZE ? customerPageStatement(companyId, query) : undefined;
  if (!statement) return undefined;
  const { client, release } = await connect();
  // A cursor lives in a transaction: the one that binds its timeouts and tenant (@erp/database).
  let rows: QueryStream;
  let first: IteratorResult<{ total: number; json: string }>;
  let cursor: AsyncIterator<{ total: number; json: string }>;
  try {
    await client.query('BEGIN READ ONLY');
    rows = client.query(new QueryStream(statement.text, statement.values, { batchSize: STREAM_BATCH_ROWS }));
    cursor = (rows as AsyncIterable<{ total: number; json: string }>)[Symbol.asyncIterator]();
    first = await cursor.next();
  } catch (error) {
    await endReadTransaction(client, release);
    throw error;
  }
  if (first.done) {
    rows.destroy();
    await endReadTransaction(client, release);
    return undefined;
  }
  if (isNameCountedListQuery(query) && query.name !== undefined) names?.counted(companyId, nameFragment(query.name));
  return Readable.from(body(client, first.value, cursor, rows, query.page.maxPageSize, release), { objectMode: false });
}

async function* body(
  client: ClientBase,
  first: { total: number; json: string },
  cursor: AsyncIterator<{ total: number; json: string }>,
  rows: QueryStream,
  maxPageSize: number,
  release: (error?: Error) => void,
): AsyncGenerator<string> {
  try {
    yield* v1PageChunks(records(first, cursor), first.total, maxPageSize);
  } finally {
    rows.destroy();
    await endReadTransaction(client, release);
  }
}

async function* records(first: { json: string }, cursor: AsyncIterator<{ json: string }>): AsyncGenerator<string> {
  yield first.json;
  for (let next = await cursor.next(); !next.done; next = await cursor.next()) yield next.value.json;
}
