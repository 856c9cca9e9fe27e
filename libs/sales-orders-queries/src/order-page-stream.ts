import type { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import { openReadOnlyCursor, type RunSql } from '@erp/database';
import { v3NextPage, v3PageChunks } from '@erp/paging';
import type { SalesOrderListQuery } from './sales-order-list.query';
import { isCellListQuery, orderCellPageQuery, orderPageStartQuery, type OrderPageStart } from './order-list-cells';
import { listJson, orderCountQuery, orderPageQuery, type SqlQuery } from './sales-orders.queries';

// Runs one statement on the page's connection and returns its rows (prepare's argument).
export type { RunSql };

/** What a page needs before its first row is sent: the count, the page query and the next link. */
export interface PageSource {
  total: number;
  page: SqlQuery;
  nextPage: string | null;
}

/** Where a list request came from: its path and raw query, which `nextPage` repeats. */
export interface ListRequest {
  path: string;
  rawQuery: string;
}

/**
 * Rows fetched per round trip while streaming. An expanded order can be megabytes (its lines are
 * aggregated into it), so only a few are held at a time; summary rows and lines are small.
 */
export const EXPANDED_BATCH_ROWS = 4;
export const SMALL_BATCH_ROWS = 250;

/**
 * Streams one page of a v3 list as the `{ value, totalCount, nextPage }` envelope.
 *
 * Why a stream: a page of 100 orders with hundreds of lines each is tens of megabytes of JSON
 * (the spec quotes gigabytes for the largest), and building it as one string, or as objects per
 * order and line, would make the service's memory grow with the page. Here each row is already
 * JSON text built by PostgreSQL (lines aggregated in SQL), read through a cursor a few rows at a
 * time and written to the client as it arrives, with the socket's backpressure pacing the cursor:
 * memory stays flat whatever the page holds, the first bytes leave as soon as the first row
 * exists, and the service adds little to the time the database itself needs.
 *
 * The count and the rows are read in one REPEATABLE READ, READ ONLY transaction on `client`, so
 * `totalCount` and the page agree (@erp/database's `openReadOnlyCursor`, which closes the cursor,
 * ends the transaction and calls `release` once, however the stream ends). An error after the
 * first bytes were sent can only cut the response short (the status line is gone): the client
 * sees invalid JSON, never a wrong page.
 */
export async function openPageStream(
  client: ClientBase,
  prepare: (run: RunSql) => Promise<PageSource>,
  batchRows: number,
  release: (error?: Error) => void,
): Promise<Readable> {
  const { cursor, plan } = await openReadOnlyCursor<{ json: string }, PageSource & { statement: SqlQuery }>(
    { client, release },
    { repeatableRead: true, batchRows },
    async (run) => {
      const source = await prepare(run);
      return { ...source, statement: source.page };
    },
  );
  return cursor.body(v3PageChunks(jsonColumn(cursor.rows()), plan.total, plan.nextPage));
}

/**
 * The count and page statements of an order list request: placed by the list cells (one small
 * statement, then a seek) when they answer it, else an exact count(*) and an OFFSET.
 */
export async function prepareOrderPage(run: RunSql, companyId: string, query: SalesOrderListQuery): Promise<{ total: number; page: SqlQuery }> {
  if (isCellListQuery(query)) {
    const placed = orderPageStartQuery(companyId, query);
    const [start] = await run<OrderPageStart>(placed.text, placed.values);
    return { total: start.total, page: orderCellPageQuery(companyId, query, start, listJson(query)) };
  }
  const count = orderCountQuery(companyId, query);
  const [{ total }] = await run<{ total: number }>(count.text, count.values);
  return { total, page: orderPageQuery(companyId, query, total) };
}

/** A page of the order list (GET /api/v3/SalesOrders[/{type}]), streamed. */
export function openOrderPage(
  client: ClientBase,
  companyId: string,
  query: SalesOrderListQuery,
  request: ListRequest,
  release: (error?: Error) => void,
): Promise<Readable> {
  return openPageStream(
    client,
    async (run) => {
      const { total, page } = await prepareOrderPage(run, companyId, query);
      return { total, page, nextPage: v3NextPage(request.path, request.rawQuery, query.page, total) };
    },
    query.expand.size > 0 ? EXPANDED_BATCH_ROWS : SMALL_BATCH_ROWS,
    release,
  );
}

async function* jsonColumn(rows: AsyncIterable<{ json: string }>): AsyncGenerator<string> {
  for await (const row of rows) yield row.json;
}
