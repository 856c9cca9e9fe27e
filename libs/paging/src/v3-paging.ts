import { ValidationFailedError } from '@erp/errors';

type QueryValue = string | string[] | undefined;

/** How one v3 list endpoint pages: its default and maximum pageSize, and the maximum with expand. */
export interface V3PagingOptions {
  defaultPageSize: number;
  maxPageSize: number;
  /** Effective maximum whenever any `expand` value is given (sales orders: 100). */
  expandedMaxPageSize?: number;
}

export interface V3PageRequest {
  /** 0-based. */
  pageIndex: number;
  /** The effective page size (after cutting to the maximum). */
  pageSize: number;
  offset: number;
  /** The maximum that applied to this request. */
  maxPageSize: number;
}

/** Above this a page index is refused: the offset must stay a safe integer and a bigint in SQL. */
export const V3_MAX_PAGE_INDEX = 1_000_000_000;

const DIGITS = /^\d{1,30}$/;

function readNonNegativeInteger(query: Record<string, QueryValue>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw ValidationFailedError.of(name, 'must be given once');
  if (!DIGITS.test(value)) throw ValidationFailedError.of(name, 'must be a non-negative integer');
  return Number(value);
}

/**
 * v3 paging rules: `pageIndex` is 0-based (default 0); `pageSize` defaults to the endpoint's
 * default, and a value above the maximum is cut to it (not refused). When the request expands
 * anything the maximum is `expandedMaxPageSize`. Non-integer or negative values, a pageSize of 0
 * and absurd page indexes are a 400 naming the parameter. Stateless: a page is an offset into a
 * stable, total order.
 */
export function parseV3Paging(
  query: Record<string, QueryValue>,
  options: V3PagingOptions,
  state: { expanded: boolean } = { expanded: false },
): V3PageRequest {
  const maxPageSize =
    state.expanded && options.expandedMaxPageSize !== undefined
      ? Math.min(options.expandedMaxPageSize, options.maxPageSize)
      : options.maxPageSize;
  const pageIndex = readNonNegativeInteger(query, 'pageIndex') ?? 0;
  if (pageIndex > V3_MAX_PAGE_INDEX) throw ValidationFailedError.of('pageIndex', `must be at most ${V3_MAX_PAGE_INDEX}`);
  const requested = readNonNegativeInteger(query, 'pageSize');
  if (requested === 0) throw ValidationFailedError.of('pageSize', 'must be a positive integer');
  const pageSize = Math.min(requested ?? options.defaultPageSize, maxPageSize);
  return { pageIndex, pageSize, offset: pageIndex * pageSize, maxPageSize };
}

/**
 * The `nextPage` link: the same path and query (every filter, in the order the client sent them,
 * repeated values kept) with `pageSize` set to the effective page size and `pageIndex` to the next
 * page. Null on the last page (and past it), so a client stops when it sees null.
 */
export function v3NextPage(path: string, rawQuery: string, page: V3PageRequest, totalCount: number): string | null {
  if ((page.pageIndex + 1) * page.pageSize >= totalCount) return null;
  const parts: string[] = [];
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    if (key === 'pageIndex' || key === 'pageSize') continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  }
  parts.push(`pageSize=${page.pageSize}`, `pageIndex=${page.pageIndex + 1}`);
  return `${path}?${parts.join('&')}`;
}

/** The v3 list envelope built from items that are already JSON text (rendered by the database). */
export function v3PageBodyFromJson(itemsJson: string[], totalCount: number, nextPage: string | null): string {
  return `{"value":[${itemsJson.join(',')}],"totalCount":${totalCount},"nextPage":${JSON.stringify(nextPage)}}`;
}

/** Default size of the chunks `v3PageChunks` yields: large enough to keep writes few, small enough to keep memory flat. */
export const V3_CHUNK_BYTES = 64 * 1024;

/**
 * The same envelope as a stream of text chunks, for pages too large to hold in memory (a page of
 * 100 orders with thousands of lines each): items are written as they arrive, small items are
 * coalesced into chunks of about `chunkBytes`, and nothing but the current chunk is held.
 * `totalCount` and `nextPage` come last in the envelope, so they must be known before streaming.
 */
export async function* v3PageChunks(
  itemsJson: AsyncIterable<string>,
  totalCount: number,
  nextPage: string | null,
  chunkBytes = V3_CHUNK_BYTES,
): AsyncGenerator<string> {
  let pending = '{"value":[';
  let first = true;
  for await (const item of itemsJson) {
    pending += first ? item : `,${item}`;
    first = false;
    if (pending.length >= chunkBytes) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}],"totalCount":${totalCount},"nextPage":${JSON.stringify(nextPage)}}`;
}
