import { ErpApiError, ErpAuthError, ErpNetworkError } from '../errors';
import { appendQuery, type Query } from './query';

export type TokenSource = string | (() => string | Promise<string>);

export interface TransportOptions {
  baseUrl: string;
  token: TokenSource;
  companyId?: string;
  applicationType: string;
  userAgent: string;
  fetch: typeof fetch;
  timeoutMs: number;
  retries: number;
  maxRetryDelayMs: number;
  /** The Idempotency-Key of a write the caller gives none (`idempotency-key` header): a fresh one each. */
  idempotencyKey: () => string;
}

export interface RequestOptions {
  query?: Query;
  /** A plain object or array is sent as JSON; a string, bytes or a stream as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON answers, text for text answers, undefined when the body is empty. */
  data: T;
}

/** Methods that are safe to send again after a 429, a 503 or a connection that failed before any answer. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Writes the API applies once per Idempotency-Key (docs/api-conventions.md "Safe retries"): each carries one, and is sent again with it. */
const KEYED = new Set(['POST', 'PATCH']);
const RETRYABLE_STATUS = new Set([429, 503]);
/** The API's 409 for a key whose first request is still running (v1 fault code, problem type). */
const KEY_IN_USE_CODES = new Set(['10304', 'idempotency-key-in-use']);

/**
 * The one place that speaks HTTP: base URL and query, the auth headers on every request, a timeout
 * for the answer's headers, errors as ErpApiError / ErpAuthError / ErpNetworkError, and retries of
 * reads and of writes (429 / 503 honour `Retry-After`). Every POST and PATCH carries an
 * Idempotency-Key (the caller's `idempotency-key` header, else a fresh one), the same on each try:
 * a write that met a network error, a cut connection, a 429, a 503 or its own earlier try still
 * running (409) is sent again and counts once. A streamed body cannot be sent twice: its caller retries.
 */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  get companyId(): string | undefined {
    return this.options.companyId;
  }

  url(path: string, query?: Query): URL {
    if (/^[a-z][a-z0-9+.-]*:/i.test(path)) throw new TypeError(`path must be relative to the base URL, got ${path}`);
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
    appendQuery(url, query);
    return url;
  }

  /** Sends the request; resolves with the raw Response (status < 400) whose body the caller reads. */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const verb = method.toUpperCase();
    const url = this.url(path, options.query);
    const key = KEYED.has(verb) ? (headerOf(options.headers, 'idempotency-key') ?? this.options.idempotencyKey()) : undefined;
    const sent = key === undefined ? options : { ...options, headers: { ...options.headers, 'idempotency-key': key } };
    const canRetry = (IDEMPOTENT.has(verb) || key !== undefined) && !isStream(options.body);
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.sendOnce(verb, url, sent);
      } catch (error) {
        const delay = canRetry && attempt < this.options.retries ? this.retryDelay(error, attempt, key !== undefined) : undefined;
        if (delay === undefined) {
          if (key !== undefined && (error instanceof ErpApiError || error instanceof ErpNetworkError)) error.idempotencyKey = key;
          throw error;
        }
        await sleep(delay, options.signal);
      }
    }
  }

  /** Sends the request and reads the whole answer. */
  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const response = await this.send(method, path, options);
    const data = (await readBody(response, method.toUpperCase(), response.url || this.url(path, options.query).toString())) as T;
    return { status: response.status, headers: response.headers, data };
  }

  private async sendOnce(method: string, url: URL, options: RequestOptions): Promise<Response> {
    const headers = new Headers({
      authorization: `Bearer ${await this.token()}`,
      'ipp-application-type': this.options.applicationType,
      accept: 'application/json',
      'user-agent': this.options.userAgent,
    });
    if (this.options.companyId) headers.set('ipp-company-id', this.options.companyId);
    let body: RequestInit['body'];
    if (options.body !== undefined) {
      if (isRawBody(options.body)) {
        body = options.body as RequestInit['body'];
      } else {
        body = JSON.stringify(options.body);
        headers.set('content-type', 'application/json');
      }
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);

    // The timeout covers the wait for the answer's headers only: a large download may take longer.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    let response: Response;
    try {
      response = await this.options.fetch(url, {
        method,
        headers,
        body,
        signal,
        // Streamed request bodies need half-duplex in Node's fetch.
        ...(isStream(body) ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const why = timeout.signal.aborted ? `no answer within ${this.options.timeoutMs} ms` : describeCause(error);
      throw new ErpNetworkError(`${method} ${url.pathname}: ${why}`, method, url.toString(), { cause: error });
    } finally {
      clearTimeout(timer);
    }
    if (response.status >= 400) throw await toApiError(response, method, url.toString());
    return response;
  }

  private async token(): Promise<string> {
    const { token } = this.options;
    return typeof token === 'function' ? token() : token;
  }

  /** A fresh Idempotency-Key, for a caller that sends one write in several tries of its own (uploads). */
  newIdempotencyKey(): string {
    return this.options.idempotencyKey();
  }

  /**
   * How long to wait before try `attempt + 2` of a keyed write whose body the caller builds again
   * for each try (an upload from bytes): the rules of `send`; undefined when it is not to be retried.
   */
  keyedRetryDelay(error: unknown, attempt: number): number | undefined {
    return attempt < this.options.retries ? this.retryDelay(error, attempt, true) : undefined;
  }

  private retryDelay(error: unknown, attempt: number, keyed: boolean): number | undefined {
    const backoff = Math.min(this.options.maxRetryDelayMs, 250 * 2 ** attempt) * (0.8 + Math.random() * 0.4);
    if (error instanceof ErpNetworkError) return backoff;
    const inUse = keyed && error instanceof ErpApiError && error.status === 409 && KEY_IN_USE_CODES.has(error.code ?? '');
    if (error instanceof ErpApiError && (RETRYABLE_STATUS.has(error.status) || inUse)) {
      if (error.retryAfter === undefined) return backoff;
      const wanted = error.retryAfter * 1000;
      // A server that asks for longer than we are willing to wait gets the error back at once.
      return wanted <= this.options.maxRetryDelayMs ? wanted : undefined;
    }
    return undefined;
  }
}

function headerOf(headers: Record<string, string> | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers ?? {})) if (key.toLowerCase() === name) return value;
  return undefined;
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body instanceof ReadableStream || typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function');
}

function isRawBody(body: unknown): boolean {
  return (
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    body instanceof Blob ||
    body instanceof FormData ||
    body instanceof URLSearchParams ||
    isStream(body)
  );
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}

/** Reads a body as JSON (JSON media types), text (other text) or nothing (empty). */
export async function readBody(response: Response, method: string, url: string): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new ErpNetworkError(`${method} ${new URL(url).pathname}: the answer was cut short (${describeCause(error)})`, method, url, { cause: error });
  }
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!/[/+]json\b/i.test(type)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // Lists are streamed: a failure after the first bytes leaves a body that does not parse.
    if (response.status < 400) throw new ErpNetworkError(`${method} ${new URL(url).pathname}: the answer was cut short (not valid JSON)`, method, url, { cause: error });
    return text;
  }
}

async function toApiError(response: Response, method: string, url: string): Promise<ErpApiError> {
  let body: unknown;
  try {
    body = await readBody(response, method, url);
  } catch {
    body = undefined;
  }
  const { code, message } = describeErrorBody(body);
  const init = {
    status: response.status,
    message: `${method} ${new URL(url).pathname} -> ${response.status}${message ? `: ${message}` : ''}`,
    code,
    body,
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    method,
    url,
  };
  return response.status === 401 || response.status === 403 ? new ErpAuthError(init) : new ErpApiError(init);
}

/** The code and message of either error family: v1 `{ ExceptionFaultCode, ExceptionMessage }` or problem+json. */
function describeErrorBody(body: unknown): { code?: string; message?: string } {
  if (typeof body === 'string') return { message: body.slice(0, 500) };
  if (typeof body !== 'object' || body === null) return {};
  const b = body as Record<string, unknown>;
  if (typeof b.ExceptionFaultCode === 'string') return { code: b.ExceptionFaultCode, message: asString(b.ExceptionMessage) };
  const type = asString(b.type);
  return { code: type?.split(':').pop(), message: asString(b.detail) ?? asString(b.title) };
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
}
