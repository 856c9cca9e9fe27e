import type { Transport } from '../http/transport';
import { v1Timestamp } from '../http/query';

/** A v1 filter value; a Date is sent as the v1 timestamp format (UTC, no zone). */
export type V1FilterValue = string | number | boolean | Date;

export interface V1PageInfo {
  /** 1-based number of the page just received. */
  pageNumber: number;
  /** The pageSize sent on every request of the run. */
  pageSize: number;
  /** Records received so far, this page included. */
  received: number;
  /** `metadata.totalCount` of this page (re-read on every page); undefined for an empty page. */
  totalCount?: number;
  /** `metadata.maxPageSize` of this page; undefined for an empty page. */
  maxPageSize?: number;
}

export interface V1ListOptions {
  /** Endpoint filters (`name`, `status`, `lastModifiedDateTime`, ...); sent unchanged on every page. */
  filters?: Readonly<Record<string, V1FilterValue | undefined>>;
  /** Records per page, sent on every request. Default 100. */
  pageSize?: number;
  /** Called after each page arrives, before its records are yielded. */
  onPage?(info: V1PageInfo): void;
  signal?: AbortSignal;
}

/** What every v1 list record carries besides its fields. */
interface V1ListMetadata {
  totalCount: number;
  maxPageSize: number;
}

export const DEFAULT_V1_PAGE_SIZE = 100;

/**
 * Every record of a v1 list, following the specification's paging rules to the letter:
 * - every request sends `pageSize` and `pageNumber` (1, 2, 3, ...);
 * - `pageSize` and the filters are fixed when the run starts (copied, so later changes to the
 *   caller's object have no effect) and sent identically on every page: changing either between
 *   pages skips records;
 * - `metadata.totalCount` is re-read on every page; the run ends when the records received reach
 *   the current `totalCount`, or when a page comes back empty.
 * Records are yielded without their `metadata` (it describes the list, not the record; `onPage` has it).
 * Records are not de-duplicated: the API orders v1 lists by creation, so records created during
 * the run are appended and none that existed at the start is missed or repeated.
 */
export async function* listV1<T = Record<string, unknown>>(transport: Transport, path: string, options: V1ListOptions = {}): AsyncGenerator<T, void, undefined> {
  const pageSize = options.pageSize ?? DEFAULT_V1_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  const filters = freezeFilters(options.filters);
  let received = 0;
  for (let pageNumber = 1; ; pageNumber++) {
    const { data } = await transport.request<unknown>('GET', path, {
      query: { ...filters, pageSize, pageNumber },
      signal: options.signal,
    });
    if (!Array.isArray(data)) throw new TypeError(`GET ${path}: expected a JSON array (a v1 list), got ${typeof data}`);
    const page = data as (T & { metadata?: V1ListMetadata })[];
    const metadata = page[0]?.metadata;
    received += page.length;
    options.onPage?.({ pageNumber, pageSize, received, totalCount: metadata?.totalCount, maxPageSize: metadata?.maxPageSize });
    for (const record of page) {
      const { metadata: _metadata, ...fields } = record;
      yield fields as T;
    }
    if (page.length === 0) return;
    if (metadata === undefined || typeof metadata.totalCount !== 'number') {
      throw new TypeError(`GET ${path}: the list records carry no metadata.totalCount`);
    }
    if (received >= metadata.totalCount) return;
  }
}

/** The filters as strings, copied once so that the same values go out on every page. */
function freezeFilters(filters: V1ListOptions['filters']): Readonly<Record<string, string>> {
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (name === 'pageSize' || name === 'pageNumber') throw new TypeError(`${name} is set by the list iterator, not as a filter`);
    if (value === undefined) continue;
    fixed[name] = value instanceof Date ? v1Timestamp(value) : String(value);
  }
  return Object.freeze(fixed);
}
