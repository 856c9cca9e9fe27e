import { ValidationFailedError } from '@erp/errors';

/** The v1 list metadata every record of a page carries. */
export interface V1ListMetadata {
  totalCount: number;
  maxPageSize: number;
}

export interface V1PageRequest {
  pageNumber: number;
  pageSize: number;
  offset: number;
  maxPageSize: number;
}

type QueryValue = string | string[] | undefined;

// Decimal digits only: no sign, fraction, exponent or hex. Zero is refused separately.
const DIGITS = /^\d+$/;

/**
 * Page numbers beyond this are past the end of any real list (a billion pages); clamping keeps
 * the offset an exact integer while still answering such a request with an empty page.
 */
export const MAX_PAGE_NUMBER = 1_000_000_000;

function readPositiveInteger(
  query: Record<string, QueryValue>,
  name: string,
  ceiling: number,
): number | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw ValidationFailedError.of(name, 'must be given once');
  if (!DIGITS.test(value) || /^0+$/.test(value))
    throw ValidationFailedError.of(name, 'must be a positive integer');
  // Any positive integer is valid, however long: larger values are cut to the ceiling.
  const digits = value.replace(/^0+/, '');
  return digits.length > 15 ? ceiling : Math.min(Number(digits), ceiling);
}

/**
 * v1 paging rules: `pageNumber` is 1-based (default 1); `pageSize` defaults to the endpoint's
 * maximum, and a larger value is cut to that maximum (not refused). Anything that is not a positive
 * integer is a 400. Stateless: the page is an offset into a stable, total order.
 */
export function parseV1Paging(query: Record<string, QueryValue>, maxPageSize: number): V1PageRequest {
  const pageNumber = readPositiveInteger(query, 'pageNumber', MAX_PAGE_NUMBER) ?? 1;
  const pageSize = readPositiveInteger(query, 'pageSize', maxPageSize) ?? maxPageSize;
  return { pageNumber, pageSize, offset: (pageNumber - 1) * pageSize, maxPageSize };
}

/** The v1 body: a bare array in which every record carries the list metadata. */
export function withV1Metadata<T extends object>(
  records: T[],
  totalCount: number,
  maxPageSize: number,
): Array<T & { metadata: V1ListMetadata }> {
  const metadata = { totalCount, maxPageSize };
  return records.map((record) => ({ ...record, metadata }));
}

/** `"metadata":{...}` of a page, spliced into each record (v1PageBodyFromJson, v1PageChunks). */
function metadataMember(totalCount: number, maxPageSize: number): string {
  return `"metadata":${JSON.stringify({ totalCount, maxPageSize })}`;
}

function withMetadata(json: string, metadata: string): string {
  return json === '{}' ? `{${metadata}}` : `${json.slice(0, -1)},${metadata}}`;
}

/**
 * The same body built from records that are already JSON text (rendered by the database): the
 * metadata is spliced into each object without parsing it, which keeps large pages cheap.
 */
export function v1PageBodyFromJson(recordsJson: string[], totalCount: number, maxPageSize: number): string {
  const metadata = metadataMember(totalCount, maxPageSize);
  return `[${recordsJson.map((json) => withMetadata(json, metadata)).join(',')}]`;
}

/** About how many characters v1PageChunks gathers before it yields them. */
export const V1_CHUNK_CHARS = 64 * 1024;

/**
 * The body of v1PageBodyFromJson as chunks, from records that arrive one by one (a cursor): the
 * same text, written while the database still renders the rest of the page. `recordsJson` must
 * not be empty (an empty page is `[]`, which needs no stream).
 */
export async function* v1PageChunks(recordsJson: AsyncIterable<string>, totalCount: number, maxPageSize: number, chunkChars = V1_CHUNK_CHARS): AsyncGenerator<string> {
  const metadata = metadataMember(totalCount, maxPageSize);
  let pending = '[';
  let first = true;
  for await (const json of recordsJson) {
    pending += first ? withMetadata(json, metadata) : `,${withMetadata(json, metadata)}`;
    first = false;
    if (pending.length >= chunkChars) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}]`;
}
