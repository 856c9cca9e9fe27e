import { type Dispatcher, RetryHandler } from 'undici';
import { defineCounter } from '@erp/observability';
import type { ReplicaSet } from './replica-set';

/** Why a request was sent again: it never reached the service, or it was a read that lost its connection before any answer. */
export type RetryReason = 'refused' | 'not_connected' | 'draining' | 'read_lost';

export const upstreamRetries = defineCounter<'upstream' | 'reason'>({
  name: 'gateway_upstream_retries_total',
  help: 'Requests the gateway sent to another replica because the first never reached its service (refused: connection refused; not_connected: the connection failed before the request was handed to it; draining: 503 with Connection: close) or was a GET or HEAD whose connection closed before any answer (read_lost)',
  labelNames: ['upstream', 'reason'],
});

/**
 * Connection failures that happen before undici hands the request to a connection: nothing of it
 * was written. (A reset or close after that is never retried, whatever its code: the service may
 * have read the request and acted on it before it went away.)
 */
const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** Methods that change nothing (RFC 9110 §9.2.1): one that lost its connection may be sent again. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** The connection closed under a request already handed to it. */
const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export interface FailedAttempt {
  /** What undici reported: a network error, or (RetryHandler's RequestRetryError) the status of an answer. */
  error: Error & { code?: string; statusCode?: number; headers?: Record<string, string | string[] | undefined> };
  /** undici handed the request to a connection (onRequestStart): it may have been written. */
  handedToConnection: boolean;
  /** 1 for the first attempt. */
  attempt: number;
  /** The request's method (GET and HEAD may be retried after a lost connection). */
  method?: string;
  /** A POST or PATCH with an Idempotency-Key: sent again, it counts once (libs/idempotency). */
  keyed?: boolean;
  /** A byte of the answer arrived (then nothing is retried). */
  answered?: boolean;
}

/**
 * The gateway's retry rule: once, and only for a request that never reached a service, for every
 * method (the request was not processed, so sending it elsewhere cannot apply it twice):
 * - the connection failed before the request was handed to it (refused: the replica stopped or
 *   is starting; reset or timed out while connecting);
 * - the answer is 503 with `Connection: close`: a draining replica refusing a request it did not
 *   process (libs/bootstrap promises that of its services: a handler's own 503 keeps the connection).
 * - a GET or HEAD whose connection closed (reset, closed) after it was sent and before any answer:
 *   it changes nothing, so sending it again cannot apply anything twice; and so for a POST or PATCH
 *   with an Idempotency-Key, which the service applies once however often it is sent (its answer,
 *   if the first was applied, is the stored one). Without a key a write is never sent again.
 * Never: any other error after the request was handed to a connection (a reset under a write, any
 * response timeout, a connection lost once the answer began), any other status. Requests with a
 * body are only retried when no byte of it was consumed (RetryHandler checks, see `replicaRetry`).
 */
export function retryReason({ error, handedToConnection, attempt, method, answered, keyed }: FailedAttempt): RetryReason | undefined {
  if (attempt > 1) return undefined;
  if (error.statusCode !== undefined) {
    const connection = [error.headers?.['connection'] ?? []].flat().join(',');
    return error.statusCode === 503 && /\bclose\b/i.test(connection) ? 'draining' : undefined;
  }
  if (handedToConnection) {
    // A GET or HEAD changes nothing, so one whose connection closed before any answer is sent
    // again (RFC 9110 §9.2.2; nginx's proxy_next_upstream does the same): a replica of a release
    // without a quiet period (1.0.0) closes its idle connections at SIGTERM, under requests just sent.
    const resendable = SAFE_METHODS.has(method ?? '') || keyed === true;
    const lost = !answered && resendable && error.code !== undefined && CLOSED_UNDER_REQUEST.has(error.code);
    return lost ? 'read_lost' : undefined;
  }
  if (!error.code || !CONNECT_FAILURES.has(error.code)) return undefined;
  return error.code === 'ECONNREFUSED' ? 'refused' : 'not_connected';
}

/** Each replica's origin, with its upstream's name and replica set. */
export type UpstreamOrigins = Map<string, { upstream: string; replicas: ReplicaSet }>;

/**
 * An undici interceptor that applies `retryReason`, sending the retry to another replica of the
 * same upstream. It uses undici's RetryHandler (its documented `retry` callback and `dispatch`):
 * the handler sits below the request's own handler, so a failed attempt does not destroy the
 * request body stream (undici's request API does that on an error, which is why
 * @fastify/reply-from's own `retriesCount` cannot resend a streamed body; it also retries a socket
 * error after the request was written, and only GETs on 503, and always to the same URL). The
 * body: RetryHandler never retries once the body stream was read from (`isDisturbed`), so no
 * body is buffered for a retry. A refused connection or a failed connect never reads it (undici
 * reads the body only when it writes the request), so those are retried for every request; a 503
 * arrives after the body was sent, so it is retried for a bodyless request and for one whose body
 * the proxy read whole (up to REPLAYABLE_BODY_BYTES, proxy.plugin.ts), and answered as it is for a
 * streamed one: a retry of that would need the whole body (uploads of up to 100 MiB) kept.
 */
export function replicaRetry(origins: UpstreamOrigins): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const first = String(opts.origin);
    const known = origins.get(first);
    let origin = first;
    let attempt = 0;
    let handedToConnection = false;
    let answered = false;
    // Observes when undici hands the attempt to a connection and when its answer starts; passes everything on.
    const observed = (inner: Dispatcher.DispatchHandler): Dispatcher.DispatchHandler => ({
      onRequestStart: (controller, context) => {
        handedToConnection = true;
        inner.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: (...args) => inner.onRequestUpgrade?.(...args),
      onResponseStart: (...args) => {
        answered = true;
        inner.onResponseStart?.(...args);
      },
      onResponseData: (...args) => inner.onResponseData?.(...args),
      onResponseEnd: (...args) => inner.onResponseEnd?.(...args),
      onResponseError: (...args) => inner.onResponseError?.(...args),
    });
    const dispatchAttempt = (attemptOpts: Dispatcher.DispatchOptions, attemptHandler: Dispatcher.DispatchHandler): boolean => {
      attempt += 1;
      handedToConnection = false;
      answered = false;
      return dispatch({ ...attemptOpts, origin, headers: withHost(attemptOpts.headers, origin) }, observed(attemptHandler));
    };
    const retry: RetryHandler.RetryCallback = (error, _context, callback) => {
      const failure = error as FailedAttempt['error'];
      if (failure.code === 'ECONNREFUSED') known?.replicas.refused(origin);
      const reason = retryReason({ error: failure, handedToConnection, attempt, method: opts.method, answered, keyed: isKeyedWrite(opts) });
      if (!reason) return callback(error);
      if (known) {
        origin = new URL(known.replicas.pickOther(urlOf(known.replicas, origin))).origin;
        upstreamRetries.inc({ upstream: known.upstream, reason });
      }
      callback(null);
    };
    const retrying = new RetryHandler({ ...opts, retryOptions: { retry, throwOnError: false } }, { dispatch: dispatchAttempt, handler });
    return dispatchAttempt(opts, retrying);
  };
}

/** A POST or PATCH that carries an Idempotency-Key (RetryHandler still refuses a body streamed past). */
function isKeyedWrite(opts: Dispatcher.DispatchOptions): boolean {
  if (opts.method !== 'POST' && opts.method !== 'PATCH') return false;
  const headers = opts.headers;
  if (!headers) return false;
  if (Array.isArray(headers)) {
    for (let i = 0; i < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'idempotency-key') return true;
    return false;
  }
  if (Symbol.iterator in headers) {
    for (const [name] of headers as Iterable<[string, unknown]>) if (name.toLowerCase() === 'idempotency-key') return true;
    return false;
  }
  return Object.keys(headers).some((name) => name.toLowerCase() === 'idempotency-key');
}

/** The replica URL of an origin (the set holds URLs; an origin drops a trailing slash). */
function urlOf(replicas: ReplicaSet, origin: string): string {
  return replicas.urls.find((url) => new URL(url).origin === origin) ?? origin;
}

/** The request's Host names the replica it goes to (reply-from set it to the first one). */
function withHost(headers: Dispatcher.DispatchOptions['headers'], origin: string): Dispatcher.DispatchOptions['headers'] {
  if (!headers || Array.isArray(headers) || Symbol.iterator in headers) return headers;
  return 'host' in headers ? { ...headers, host: new URL(origin).host } : headers;
}

/** The origin of every replica of every configured upstream. */
export function upstreamOrigins(upstreams: Partial<Record<string, ReplicaSet>>): UpstreamOrigins {
  const origins: UpstreamOrigins = new Map();
  for (const [upstream, replicas] of Object.entries(upstreams)) {
    if (!replicas) continue;
    for (const url of replicas.urls) origins.set(new URL(url).origin, { upstream, replicas });
  }
  return origins;
}
