import type { Query } from '../http/query';
import type { Transport } from '../http/transport';

export interface V3PageInfo {
  /** 0-based index of the page just received. */
  pageIndex: number;
  /** 1-based count of pages received so far. */
  pageNumber: number;
  /** Records received so far, this page included. */
  received: number;
  /** `totalCount` of this page's envelope. */
  totalCount: number;
}

export interface V3ListOptions {
  /** Called after each page arrives, before its records are yielded. */
  onPage?(info: V3PageInfo): void;
  signal?: AbortSignal;
}

interface V3Envelope<T> {
  value: T[];
  totalCount: number;
  nextPage: string | null;
}

/**
 * Every record of a v3 list (`{ value, totalCount, nextPage }`): the first request is `path` with
 * `query`, each later one is exactly the `nextPage` the server gave (it repeats every parameter and
 * the page size it used), until `nextPage` is null or a page is empty.
 */
export async function* listV3<T = Record<string, unknown>>(transport: Transport, path: string, query: Query = {}, options: V3ListOptions = {}): AsyncGenerator<T, void, undefined> {
  let next: { path: string; query?: Query } | undefined = { path, query };
  let received = 0;
  for (let pageNumber = 1; next; pageNumber++) {
    const response: { data: V3Envelope<T> } = await transport.request<V3Envelope<T>>('GET', next.path, { query: next.query, signal: options.signal });
    const data = response.data;
    if (!data || !Array.isArray(data.value)) throw new TypeError(`GET ${next.path}: expected a v3 list envelope { value, totalCount, nextPage }`);
    received += data.value.length;
    const pageIndex = pageIndexOf(next, pageNumber - 1);
    options.onPage?.({ pageIndex, pageNumber, received, totalCount: data.totalCount });
    yield* data.value;
    next = data.value.length > 0 && data.nextPage ? { path: data.nextPage } : undefined;
  }
}

function pageIndexOf(request: { path: string; query?: Query }, fallback: number): number {
  const fromQuery = request.query?.pageIndex;
  if (typeof fromQuery === 'number') return fromQuery;
  const fromPath = new URL(request.path, 'http://x').searchParams.get('pageIndex');
  return fromPath !== null && /^\d+$/.test(fromPath) ? Number(fromPath) : fallback;
}
