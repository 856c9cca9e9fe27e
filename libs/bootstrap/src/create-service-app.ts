import { type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyContentTypeParser, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { ApiError, ApiExceptionFilter, createValidationPipe, type ErrorFamily, errorFamilyForPath, JsonObjectBodyPipe, renderError } from '@erp/errors';
import { IDEMPOTENCY_KEY_HEADER, RAW_JSON_BODY } from '@erp/idempotency';
import { DrainState, instrumentHttpMetrics, instrumentHttpTracing, PinoNestLogger, requestIdFor } from '@erp/observability';
import { clientErrorHandler } from './client-error';
import { attachHttpDrain, HttpDrain } from './http-drain';
import { connectHybridMicroservices } from './hybrid-microservices';
import { type RequestLogging, requestLogController } from './request-log';

export interface ServiceAppOptions {
  logger: Logger;
  /** Which error shape this service answers in. */
  errorFamily: ErrorFamily | 'by-path';
  bodyLimitBytes?: number;
  /** The per-request log lines (LOG_REQUESTS, default `completed`: one line per request). */
  requestLogging?: RequestLogging;
  /** Slow-client limits; defaults in `DEFAULT_SLOW_CLIENT_LIMITS`. */
  timeouts?: Partial<SlowClientLimits>;
  /** Serve `GET /metrics` on the app's own port (default true; false with a metrics listener, METRICS_PORT). */
  serveMetrics?: boolean;
  /**
   * How long an idle keep-alive connection stays open (default 5000 ms), announced to clients in
   * `Keep-Alive: timeout=<s>`: clients that read it (undici, so the gateway and the internal API
   * clients) drop the connection before the server closes it, so no request meets a connection
   * the server is closing. A draining replica waits for them (http-drain.ts).
   */
  keepAliveTimeoutMs?: number;
}

/** How long a client may take before the server cuts it off (slow-loris protection). */
export interface SlowClientLimits {
  /** The complete header block must arrive within this many ms (Node `headersTimeout`). */
  headersTimeoutMs: number;
  /** The complete request, body included, within this many ms (0 = no limit; Node `requestTimeout`). */
  requestTimeoutMs: number;
  /** A socket with no traffic for this many ms is closed (Fastify `connectionTimeout`; 0 = never). */
  idleSocketTimeoutMs: number;
}

export const DEFAULT_SLOW_CLIENT_LIMITS: SlowClientLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 300_000,
  idleSocketTimeoutMs: 120_000,
};

/** Node's own default: long enough to carry a burst, short enough for a drain to wait it out. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * How long after the announced `Keep-Alive: timeout` the server really closes an idle connection
 * (Node's `keepAliveTimeoutBuffer`, 1 s by default). undici lets go 2 s before the announced time,
 * counted from when its caller has read the whole answer; a gateway starved of CPU, or slow to pass
 * a large answer on, counts late. The connection must not close under it while it writes the next
 * request: the gateway could not tell that from a service dying on the request, and would not retry.
 */
export const KEEP_ALIVE_CLOSE_GRACE_MS = 5_000;

/**
 * Node checks headersTimeout/requestTimeout only every `connectionsCheckingInterval` (30 s by
 * default), so a short limit would be enforced late; check at a fraction of the shortest limit.
 */
function checkingIntervalFor(limits: SlowClientLimits): number {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs || Infinity);
  return Math.max(250, Math.min(5_000, Math.floor(shortest / 4)));
}

/**
 * Builds a Nest application on Fastify with the habits every service shares: pino request
 * logging keyed by `x-request-id`, Prometheus metrics (`GET /metrics`, request latency by route),
 * the family's error filter and the strict validation pipe. Signals are handled by `runService`
 * (drain, then lifecycle hooks, then exit 0); tests close the app themselves.
 */
export async function createServiceApp(
  module: Type<unknown> | DynamicModule,
  options: ServiceAppOptions,
): Promise<NestFastifyApplication> {
  const limits = { ...DEFAULT_SLOW_CLIENT_LIMITS, ...options.timeouts };
  const adapter = new FastifyAdapter({
    loggerInstance: options.logger,
    // Slow-loris: a client trickling headers or a body cannot hold a connection for long.
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingIntervalFor(limits),
      keepAliveTimeoutBuffer: KEEP_ALIVE_CLOSE_GRACE_MS,
    },
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleSocketTimeoutMs,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    genReqId: requestIdFor,
    bodyLimit: options.bodyLimitBytes ?? 1024 * 1024,
    logController: requestLogController(options.requestLogging ?? 'completed'),
    // Keep-alive connections that are idle are closed at shutdown; busy ones finish first.
    forceCloseConnections: 'idle',
    // Errors the router raises before any hook runs (a path with malformed percent-encoding, a
    // path segment over maxParamLength) are answered in the family's shape with x-request-id,
    // not Fastify's bare JSON: a too-long id names no resource (404), a malformed URL is a 400.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const path = (request.url ?? '/').split('?')[0];
      const family = options.errorFamily === 'by-path' ? errorFamilyForPath(path) : options.errorFamily;
      const apiError =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError('RouteNotFound', 'No resource exists at this path')
          : new ApiError('ValidationFailed', 'The request URL is not valid (malformed percent-encoding)');
      const rendered = renderError(apiError, family, path);
      void reply.status(rendered.status).headers(rendered.headers).header('x-request-id', String(request.id)).send(rendered.body);
    },
    return503OnClosing: true,
    clientErrorHandler: clientErrorHandler(options.errorFamily),
  });
  const fastify = adapter.getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  instrumentHttpMetrics(fastify, { serveMetrics: options.serveMetrics ?? true });
  // A server span per request when tracing is on (runService started it); nothing otherwise.
  instrumentHttpTracing(fastify);
  // Once draining (SIGTERM) or closing, answers close their keep-alive connections (http-drain.ts).
  const drain = new HttpDrain(fastify);
  // JSON only: Fastify's own JSON parser (with prototype-poisoning protection) stays; the plain
  // text parser goes, so a text body is a 415 rather than a string reaching a DTO.
  fastify.removeContentTypeParser('text/plain');
  // Our own JSON body reader (Fastify's JSON parse, with its prototype-poisoning protection, stays):
  // - a body over the limit is read to its end and dropped before the 413 is sent (up to
  //   MAX_DRAIN_BYTES past the limit), so the connection stays usable and a proxy streaming the
  //   body (the gateway) gets the 413 instead of a broken pipe (which it turned into a 503);
  // - JSON nested deeper than MAX_JSON_DEPTH is a 400 before it is parsed: deeper values blew
  //   the stack of the recursive code after the parser (v1 unwrapping, class-transformer) -> 500.
  const defaultJsonParser = fastify.getDefaultJsonParser('error', 'error');
  const instanceBodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  fastify.removeContentTypeParser('application/json');
  const readJsonBody: FastifyContentTypeParser = (request, payload, done) => {
    const limit = request.routeOptions.bodyLimit ?? instanceBodyLimit;
    const declared = Number(request.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    let received = 0;
    let finished = false;
    const chunks: Buffer[] = [];
    const finish = (err: Error | null, value?: unknown) => {
      if (finished) return;
      finished = true;
      payload.removeAllListeners('data');
      done(err, value);
    };
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (received > limit + MAX_DRAIN_BYTES) {
          // Not worth reading further: answer now; the connection closes after the answer.
          finish(new ApiError('PayloadTooLarge', 'The request body is larger than this endpoint accepts'));
        }
        return;
      }
      chunks.push(chunk);
    });
    payload.on('end', () => {
      if (tooLarge) return finish(new ApiError('PayloadTooLarge', 'The request body is larger than this endpoint accepts'));
      const text = Buffer.concat(chunks).toString('utf8');
      // A keyed write's fingerprint covers the body as sent, not as parsed (libs/idempotency).
      if (request.headers[IDEMPOTENCY_KEY_HEADER] !== undefined) (request as FastifyRequest & { [RAW_JSON_BODY]?: string })[RAW_JSON_BODY] = text;
      if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
        return finish(new ApiError('MalformedBody', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`));
      }
      defaultJsonParser(request, text, (err, value) => {
        // PostgreSQL cannot store U+0000 in text: a NUL reaching SQL was a 500 (found by the suite).
        if (!err && containsNul(value)) {
          return finish(new ApiError('MalformedBody', 'Text values must not contain the NUL character (\\u0000)'));
        }
        finish(err, value);
      });
    });
    payload.on('error', (err) => finish(err));
  };
  // Every JSON media type the published v3 document declares for request bodies: application/json,
  // text/json and application/*+json (a client generated from it may send any of them).
  fastify.addContentTypeParser(['application/json', 'text/json'], readJsonBody);
  fastify.addContentTypeParser(/^application\/[\w.!#$&^-]+\+json(\s*;.*)?$/i, readJsonBody);
  // The same rule for the query string and path: a NUL in a filter reached SQL as a 500.
  fastify.addHook('preValidation', async (request) => {
    if (containsNul(request.query) || containsNul(request.params)) {
      throw new ApiError('ValidationFailed', 'Query and path values must not contain the NUL character (\\u0000)');
    }
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Nest's extra parsers (urlencoded) are not wanted: the API speaks JSON and multipart only.
    bodyParser: false,
  });
  app.useGlobalFilters(new ApiExceptionFilter(options.errorFamily));
  app.useGlobalPipes(new JsonObjectBodyPipe(), createValidationPipe());
  // A service that consumes events is a hybrid app: its event transport is connected here (with
  // its own pipes and filters, not the HTTP ones above) and started by `listen`.
  connectHybridMicroservices(app);
  attachHttpDrain(app, drain);
  const readiness = drainStateOf(app);
  if (readiness) drain.reportTo(() => readiness.begin());
  return app;
}

/**
 * The app's readiness drain flag, when it has the health module. Looked up through the module
 * graph, as the hybrid microservices are: `app.get` of a token no module provides ends the process.
 */
function drainStateOf(app: NestFastifyApplication): DrainState | undefined {
  for (const module of app.get(ModulesContainer).values()) {
    const instance: unknown = module.providers.get(DrainState)?.instance;
    if (instance instanceof DrainState) return instance;
  }
  return undefined;
}

/** How much of an oversized body is read and dropped before the connection is given up. */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/** Deepest JSON nesting a request body may have (objects and arrays). */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text nests objects/arrays deeper than `max` (brackets inside strings ignored). */
export function exceedsJsonDepth(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** True when a parsed JSON value has U+0000 in any string (keys included). Depth is bounded by the reader. */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
    } else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/**
 * Initialises the app, starts its microservices (event consumers), then listens; returns the base
 * URL (port 0 picks a free port, as the tests do). Consumers start after the modules' init hooks,
 * as they did when they were started by one, and before the first request.
 */
export async function listen(app: INestApplication, port: number, host: string): Promise<string> {
  await app.init();
  await app.startAllMicroservices();
  await app.listen(port, host);
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actualPort}`;
}
