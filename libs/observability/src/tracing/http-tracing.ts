import { context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from '../metrics/http-metrics';
import { carrierOf } from './trace-context';
import { ERP_ATTRIBUTES, isTracingEnabled, tracer } from './tracing';

const serverSpans = new WeakMap<FastifyRequest, Span>();

/** The server span of a request (undefined when tracing is off). */
export function requestSpan(request: FastifyRequest): Span | undefined {
  return serverSpans.get(request);
}

/**
 * Headers that carry the request's trace to the next hop (the gateway's upstream call): its
 * server span as parent. Empty when tracing is off, so the caller's own headers pass unchanged.
 */
export function traceHeadersFor(request: FastifyRequest): Record<string, string> {
  const span = serverSpans.get(request);
  if (!span) return {};
  const carrier = carrierOf(trace.setSpan(ROOT_CONTEXT, span));
  return carrier ? { ...carrier } : {};
}

/**
 * A server span per request, continuing the caller's W3C `traceparent` (the gateway's, or a
 * client's at the gateway): named `<METHOD> <route pattern>`, with the status code, the request id
 * and the company the caller was authenticated for (`request.auth`, set by the AuthGuard). The span
 * is the active context for the rest of the request (hooks, body parsing, handler), so the outbox
 * and log lines see it. Registered by `createServiceApp`; does nothing when tracing is off.
 */
export function instrumentHttpTracing(fastify: FastifyInstance): void {
  if (!isTracingEnabled()) return;
  fastify.addHook('onRequest', (request, reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const span = tracer().startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: request.method,
          [ATTR_HTTP_ROUTE]: route,
          [ATTR_URL_PATH]: request.url.split('?')[0],
          [ERP_ATTRIBUTES.requestId]: String(request.id),
        },
      },
      parent,
    );
    serverSpans.set(request, span);
    const active = trace.setSpan(parent, span);
    // The body arrives in 'data' events of the raw request, outside this call: bind them (and the
    // response's events) to the span's context so the handler that runs after parsing keeps it.
    context.bind(active, request.raw);
    context.bind(active, reply.raw);
    context.with(active, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = serverSpans.get(request);
    if (span) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, reply.statusCode);
      const companyId = (request as FastifyRequest & { auth?: { companyId?: string } }).auth?.companyId;
      if (companyId) span.setAttribute(ERP_ATTRIBUTES.companyId, companyId);
      // Server spans are errors only for 5xx; a 4xx is the client's mistake (semantic conventions).
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      serverSpans.delete(request);
    }
    done();
  });
  fastify.addHook('onRequestAbort', (request, done) => {
    const span = serverSpans.get(request);
    if (span) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'client aborted the request' });
      span.end();
      serverSpans.delete(request);
    }
    done();
  });
}
