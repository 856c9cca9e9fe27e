import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectProcessMetrics, defineHistogram, metricsRegistry } from './metrics-registry';

export const METRICS_PATH = '/metrics';

/** Route label of a request that matched no route (a 404), so raw URLs never become labels. */
export const UNMATCHED_ROUTE = '(unmatched)';

export const httpRequestDuration = () =>
  defineHistogram<'method' | 'route' | 'status_code'>({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });

export interface HttpMetricsOptions {
  /**
   * Also serve `GET /metrics` on this instance (default true). False when the service has a
   * metrics listener of its own (`startMetricsServer`, METRICS_PORT), so the public port does not
   * answer it.
   */
  serveMetrics?: boolean;
}

/**
 * Instruments a Fastify instance: every answered request is observed in
 * `http_request_duration_seconds{method, route, status_code}` (route = the pattern, e.g.
 * `/v1/customer/:customerNumber`), and unless `serveMetrics` is false, `GET /metrics` serves the
 * registry in the Prometheus text format. Call before routes are added. `/metrics` is a plain
 * Fastify route, outside Nest's guards: it needs no token, which is why deployments serve it on
 * METRICS_PORT instead (see startMetricsServer).
 */
export function instrumentHttpMetrics(fastify: FastifyInstance, options: HttpMetricsOptions = {}): void {
  collectProcessMetrics();
  const duration = httpRequestDuration();
  fastify.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? UNMATCHED_ROUTE,
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  if (options.serveMetrics === false) return;
  fastify.get(METRICS_PATH, async (_request, reply) => {
    reply.header('content-type', metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });
}
