import { Agent, type Dispatcher } from 'undici';
import type { Upstreams } from './routes';
import { replicaRetry, upstreamOrigins } from './upstream-retry';

/**
 * How long the gateway keeps an idle connection to a service that announces no `Keep-Alive:
 * timeout`: below Node's default 5 s, the shortest idle timeout a server commonly has. A service
 * that announces one (ours: KEEP_ALIVE_TIMEOUT_MS, 5 s) is left 2 s before it (undici's
 * `keepAliveTimeoutThreshold`), so the gateway drops the connection before the service closes it.
 */
export const UPSTREAM_KEEP_ALIVE_MS = 4_000;

/**
 * The connection pools to the services, with the retry rule of upstream-retry.ts. Stale pooled
 * connections (closed by the service while idle) are not written to: undici closes an idle
 * connection before the service's announced timeout, and before reusing one it lets any pending
 * close or reset arrive first (undici 7's idle-socket check), then takes a new connection.
 */
export function createUpstreamDispatcher(upstreams: Upstreams, timeoutMs: number): Dispatcher {
  const agent = new Agent({
    connections: 128,
    pipelining: 1,
    keepAliveTimeout: UPSTREAM_KEEP_ALIVE_MS,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return agent.compose(replicaRetry(upstreamOrigins(upstreams)));
}
