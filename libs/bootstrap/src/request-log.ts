import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * What a service logs per request (LOG_REQUESTS):
 * - `completed` (default): one line when the answer is sent, with the request (method, URL, client)
 *   and the response (status, time), as an access log has it;
 * - `all`: Fastify's two lines, "incoming request" when it arrives and "request completed" when it
 *   is answered (a request that hangs then shows its first line without its second);
 * - `off`: none (errors are still logged).
 * A line costs: the customers-list profile had Fastify's two lines at 21 % of the service's CPU
 * and 25 % of the gateway's (docs/benchmark-history/2026-11-28-cost-per-request.md).
 */
export type RequestLogging = 'completed' | 'all' | 'off';

/**
 * Fastify's log controller with the arrival line left out and the completion line carrying the
 * request too. Extending LogController is Fastify's documented way to change its request lines.
 */
class CompletedRequestLog extends LogController {
  override incomingRequest(): void {
    // Logged with the completion instead (one line per request).
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The log controller of a service app for LOG_REQUESTS, request ids under `requestId`. */
export function requestLogController(mode: RequestLogging): LogController {
  const options = { requestIdLogLabel: 'requestId', disableRequestLogging: mode === 'off' };
  return mode === 'completed' ? new CompletedRequestLog(options) : new LogController(options);
}
