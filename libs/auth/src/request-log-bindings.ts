import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Bindings, Logger } from 'pino';

type RequestLogger = FastifyBaseLogger & Partial<Pick<Logger, 'setBindings'>>;

/**
 * Adds `bindings` (the verified company, never the token) to every later log line of the request,
 * the request line included, on the request's own logger: Fastify's per-request pino child, which
 * the reply shares. A child of that child per request, as before, cost more than the request line
 * itself (pino builds each child on the prototype of its parent, a new prototype per request for
 * V8), and the request line, logged through the reply's logger, did not carry it
 * (docs/benchmark-history/2026-11-28-cost-per-request.md). A logger without `setBindings` (not
 * pino's) gets a child, as before.
 */
export function bindRequestLog(request: FastifyRequest, bindings: Bindings): void {
  const log = request.log as RequestLogger;
  if (typeof log.setBindings === 'function') log.setBindings(bindings);
  else request.log = log.child(bindings);
}
