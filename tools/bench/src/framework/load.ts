import autocannon from 'autocannon';

export interface LoadOptions {
  /** Base URL (scheme, host, port) of the target. */
  baseUrl: string;
  headers: Record<string, string>;
  /** The path (and query) of each request, in order; called once per request. */
  nextPath: () => string;
  connections: number;
  durationSeconds: number;
  /** Seconds before an unanswered request counts as a timeout (autocannon's default: 10). */
  timeoutSeconds?: number;
}

/** What one load run measured. Latencies in milliseconds; throughput in 2xx responses per second. */
export interface LoadMeasurement {
  target: string;
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  errors: number;
  non2xx: number;
  bytesPerSecond: number;
  durationSeconds: number;
  /** Answers by HTTP status ("200", "412", ...), where a scenario counts them (expected non-2xx are not errors there). */
  statusCounts?: Record<string, number>;
  /** CPU ms per answered request of each process while this target was loaded (from /proc). */
  cpuMsPerRequest?: Record<string, number>;
  /** CPU ms per answered request of the PostgreSQL server (all its processes), where it runs on this machine. */
  databaseCpuMsPerRequest?: number;
  /** CPU ms per answered request of the bench process itself: the load generator (autocannon). */
  loadGeneratorCpuMsPerRequest?: number;
}

/**
 * Drives a target with autocannon: `connections` keep-alive connections, each sending its next
 * request as soon as the previous answer arrived, for `durationSeconds`.
 */
export async function runLoad(target: string, options: LoadOptions): Promise<LoadMeasurement> {
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.durationSeconds,
    headers: options.headers,
    ...(options.timeoutSeconds ? { timeout: options.timeoutSeconds } : {}),
    requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: options.nextPath() }) }],
  });
  const ok = result['2xx'];
  return {
    target,
    requests: result.requests.total,
    rps: round(ok / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    meanMs: round(result.latency.average),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    bytesPerSecond: Math.round(result.throughput.average),
    durationSeconds: round(result.duration),
  };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
