import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import replyFrom from '@fastify/reply-from';
import { type AuthContext, authenticateRequest, bindRequestLog, scopeForMethod, type TokenVerifier } from '@erp/auth';
import { ApiError, errorFamilyForPath, renderError, ServiceUnavailableError, toApiError } from '@erp/errors';
import { ERP_ATTRIBUTES, requestSpan, traceHeadersFor } from '@erp/observability';
import { ReplicaReadinessWatch } from './replica-readiness';
import type { ResolvedRoute, RouteResolver, Upstreams } from './routes';
import { createUpstreamDispatcher } from './upstream-dispatcher';

export interface ProxyPluginOptions {
  /** Each request's owner and rules, learned from the services' documents (GatewayRoutes). */
  routes: RouteResolver;
  /** The replicas of every configured service: the connection pools, retries and readiness watch serve them. */
  upstreams: Upstreams;
  verifier: TokenVerifier;
  upstreamTimeoutMs: number;
  /** Requests per company per minute (0 = no limit); counted in this gateway's memory. */
  rateLimitPerCompanyPerMinute?: number;
}

/** What the onRequest hook learned about a request: its route and its verified caller. */
interface ProxiedRequest {
  route: ResolvedRoute;
  auth: AuthContext;
}
const proxied = new WeakMap<FastifyRequest, ProxiedRequest>();

const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$|\?)/i;

function isDecodable(url: string): boolean {
  try {
    decodeURIComponent(url);
    return true;
  } catch {
    return false;
  }
}

function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
  const error = toApiError(err);
  const path = request.url.split('?')[0];
  if (error.status >= 500 && !(err instanceof ApiError)) request.log.error({ err }, 'gateway error');
  const rendered = renderError(error, errorFamilyForPath(path), path);
  return reply.status(rendered.status).headers(rendered.headers).header('x-request-id', request.id).send(rendered.body);
}

/**
 * The gateway's catch-all: find the owning service, check the token and the ipp-* headers with
 * the same rules the services apply, then stream the request to the service and its answer back
 * (only bodies up to REPLAYABLE_BODY_BYTES are read whole, so large attachments pass through in
 * constant memory).
 * Registered in its own encapsulated context so its pass-through body handling does not leak
 * into the gateway's own routes (health, API document).
 */
export async function proxyPlugin(fastify: FastifyInstance, options: ProxyPluginOptions): Promise<void> {
  const upstreams = createUpstreamDispatcher(options.upstreams, options.upstreamTimeoutMs);
  const readiness = new ReplicaReadinessWatch(Object.values(options.upstreams).filter((set) => set !== undefined));
  readiness.start();
  fastify.addHook('onClose', async () => {
    await readiness.stop();
    await upstreams.close();
  });
  await fastify.register(replyFrom, { undici: upstreams, disableRequestLogging: true });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request, payload, done) => {
    // A small body with a declared length and type is read whole, so that a retry can send it again (a
    // replica draining without a quiet period, as release 1.0.0's do, answers a request it did not
    // process 503 + Connection: close: upstream-retry.ts). Larger or chunked ones (uploads) stream.
    const declared = Number(request.headers['content-length']);
    if (request.headers['content-type'] && Number.isInteger(declared) && declared <= REPLAYABLE_BODY_BYTES) {
      const chunks: Buffer[] = [];
      payload.on('data', (chunk: Buffer) => chunks.push(chunk));
      payload.on('end', () => done(null, Buffer.concat(chunks)));
      payload.on('error', (error) => done(error));
      return;
    }
    // A streamed body goes to the service through a PassThrough rather than as the request
    // itself: when the upstream request ends early (the service answered before reading it all),
    // undici destroys the stream it was given, and destroying the request would reset the
    // client's connection before it reads the answer. pipe() does not pass that back.
    done(null, payload.pipe(new PassThrough()));
  });
  fastify.setErrorHandler((err, request, reply) => sendError(request, reply, err));

  // Route and authenticate before anything else (rate limiting is keyed by the verified company).
  fastify.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    const route = DOT_SEGMENT.test(path) ? undefined : await options.routes.resolve(request.method, request.url);
    if (!route) throw new ApiError('RouteNotFound', 'No resource exists at this path');
    // The proxy decodes the URL to check it (a malformed `%` sequence threw a URIError -> 500).
    if (!isDecodable(request.url)) throw new ApiError('ValidationFailed', 'The request URL is not valid (malformed percent-encoding)');
    const auth = await authenticateRequest(request.headers, options.verifier, {
      requireApplicationType: route.rule.v1,
      requiredScope: route.rule.scope ?? scopeForMethod(request.method),
    });
    bindRequestLog(request, { companyId: auth.companyId, upstream: route.rule.upstream });
    requestSpan(request)?.setAttribute(ERP_ATTRIBUTES.companyId, auth.companyId);
    proxied.set(request, { route, auth });
  });

  const perMinute = options.rateLimitPerCompanyPerMinute ?? 0;
  if (perMinute > 0) {
    // In-memory counters: with several gateway replicas each counts alone (use a shared store,
    // e.g. Redis via the plugin's `redis` option, to make the limit global).
    await fastify.register(rateLimit, {
      global: true,
      hook: 'preHandler',
      max: perMinute,
      timeWindow: 60_000,
      keyGenerator: (request) => `company:${proxied.get(request)?.auth.companyId ?? request.ip}`,
      errorResponseBuilder: (_request, context) =>
        new ApiError('TooManyRequests', `Rate limit of ${context.max} requests per minute exceeded; retry after ${context.after}`, {
          headers: { 'retry-after': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
        }),
    });
  }

  fastify.all('/*', async (request, reply) => {
    const known = proxied.get(request);
    if (!known) throw new ApiError('RouteNotFound', 'No resource exists at this path');
    const { route } = known;

    drainBodyAfterAnswer(request, reply);
    // A body read whole goes as it came: reply-from would JSON-encode a Buffer it finds as the
    // request's body, and keep only the media type of its Content-Type (a multipart boundary lost).
    const whole = Buffer.isBuffer(request.body) ? { body: request.body, contentType: request.headers['content-type'] } : {};
    return reply.from(`${route.baseUrl}${request.url}`, {
      ...whole,
      // With tracing on, the service's span becomes a child of this request's gateway span.
      rewriteRequestHeaders: (_req, headers) => ({ ...headers, ...traceHeadersFor(request), 'x-request-id': String(request.id) }),
      // Reached after the retry, if any (upstream-retry.ts), failed too or was not allowed.
      onError: (errorReply, { error }) => {
        request.log.warn({ err: error, upstream: route.rule.upstream }, 'upstream unavailable');
        sendError(request, errorReply as FastifyReply, new ServiceUnavailableError('The service behind this path is unavailable; retry later', 2));
      },
      onResponse: (_request, proxyReply, upstream) => {
        // reply-from asks to close a connection whose request body has not fully arrived; the body
        // is drained instead (drainBodyAfterAnswer), so the client can finish and read the answer.
        if (!request.raw.complete) (proxyReply as FastifyReply).removeHeader('connection');
        void proxyReply.send(upstream.stream);
      },
    });
  });
}

/**
 * Request bodies up to this size (JSON writes: a sales order of 300 lines is about 60 KB) are read
 * whole before they are sent, so a retry can send them again; larger ones stream and are not
 * retried once sent.
 */
export const REPLAYABLE_BODY_BYTES = 256 * 1024;

/** How much of a request body is still read (and dropped) after an early answer before the connection is cut. */
export const MAX_DRAIN_AFTER_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * An answer can leave before the whole request body arrived: the service refused an upload as soon
 * as its headers were read (404, 413, 415), or the service was unreachable (503). Closing the
 * connection then, or leaving the body paused, made the client, still sending, see EPIPE, a reset
 * or a hang instead of the answer. So once the answer is out, the rest of the body keeps flowing
 * (to the service if it still reads it, otherwise here) and is dropped, up to
 * MAX_DRAIN_AFTER_ANSWER_BYTES, past which the connection is cut.
 */
function drainBodyAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  const body = request.raw;
  reply.raw.once('finish', () => {
    if (body.complete || body.destroyed) return;
    let drained = 0;
    const count = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > MAX_DRAIN_AFTER_ANSWER_BYTES) {
        body.off('data', count);
        body.socket.destroy();
      }
    };
    body.on('data', count);
    body.once('end', () => body.off('data', count));
    // If the upstream stopped reading, pipe() has let go of the body and it sits paused.
    body.resume();
  });
}
