import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import {
  createLogger,
  logTracingProblems,
  type MetricsServer,
  shutdownTracing,
  startMetricsServer,
  startTracing,
  tracingSettingsFrom,
} from '@erp/observability';
import type { ErrorFamily } from '@erp/errors';
import { ConfigError, loadConfig, type ServiceConfig } from './config';
import { createServiceApp, listen } from './create-service-app';
import { type DrainLimits, httpDrainOf } from './http-drain';

export interface RunServiceOptions<C extends ServiceConfig> {
  name: string;
  config: new () => C;
  module: (config: C) => DynamicModule;
  errorFamily: ErrorFamily | 'by-path';
}

/**
 * A service's `main.ts` in one call: validated configuration (exit 1 naming the bad variable),
 * logger, app, listen, and graceful shutdown on SIGTERM/SIGINT (see `closeGracefully`).
 */
export async function runService<C extends ServiceConfig>(options: RunServiceOptions<C>): Promise<void> {
  let config: C;
  try {
    config = loadConfig(options.config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // Tracing first: the logger adds trace ids to its lines only when tracing is on.
  const tracing = tracingSettingsFrom(config, options.name);
  if (tracing) await startTracing(tracing);
  const logger = createLogger({
    service: options.name,
    level: config.LOG_LEVEL,
    pretty: config.LOG_PRETTY === 'true',
    traceIds: tracing !== undefined,
    bufferBytes: config.LOG_BUFFER_BYTES,
  });
  if (tracing) logTracingProblems(logger);
  try {
    const app = await createServiceApp(options.module(config), {
      logger,
      errorFamily: options.errorFamily,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      requestLogging: config.LOG_REQUESTS,
      timeouts: {
        headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
        requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
        idleSocketTimeoutMs: config.IDLE_SOCKET_TIMEOUT_MS,
      },
      serveMetrics: config.METRICS_PORT === undefined,
      keepAliveTimeoutMs: config.KEEP_ALIVE_TIMEOUT_MS,
    });
    const url = await listen(app, config.PORT, config.HOST);
    // Scrapes keep working while the service drains; the listener closes last.
    const metrics: MetricsServer | undefined =
      config.METRICS_PORT === undefined ? undefined : await startMetricsServer(config.METRICS_PORT, config.HOST);
    // One shutdown, whatever arrives next (Ctrl-C sends SIGINT and `npm start` then SIGTERM);
    // SHUTDOWN_TIMEOUT_MS bounds it, and SIGKILL still ends the process at once.
    let shuttingDown = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (shuttingDown) return;
      shuttingDown = true;
      const afterClose = async () => {
        await shutdownTracing();
        await metrics?.close();
      };
      const drain = drainLimitsFrom(config);
      void closeGracefully(app, logger, signal, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, drain, afterClose }).then((code) => process.exit(code));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    logger.info({ url, ...(metrics ? { metricsUrl: metrics.url } : {}) }, `${options.name} listening`);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${err.message}\n`);
      process.exit(1);
    }
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }
}

/**
 * How long a draining replica keeps its listener open (see `ServiceConfig.SHUTDOWN_QUIET_MS`):
 * until it had no request for the quiet period and no idle connection, at most the quiet period
 * plus the keep-alive timeout (clients reading `Keep-Alive` have let go by then), and never more
 * than half the shutdown time, which leaves the other half to the requests in flight.
 */
export function drainLimitsFrom(config: Pick<ServiceConfig, 'SHUTDOWN_QUIET_MS' | 'KEEP_ALIVE_TIMEOUT_MS' | 'SHUTDOWN_TIMEOUT_MS'>): DrainLimits {
  const quietMs = config.SHUTDOWN_QUIET_MS;
  return { quietMs, maxMs: Math.min(quietMs + config.KEEP_ALIVE_TIMEOUT_MS, Math.max(quietMs, config.SHUTDOWN_TIMEOUT_MS / 2)) };
}

export interface CloseOptions {
  /** The whole shutdown's limit (SHUTDOWN_TIMEOUT_MS); past it the exit code is 1. */
  timeoutMs: number;
  /** How long the listener stays open while the replica drains; absent: it closes at once. */
  drain?: DrainLimits;
  /** Runs last, inside the same time limit (runService: export the buffered spans). */
  afterClose?: () => Promise<void>;
}

/**
 * Graceful shutdown, in order:
 * 1. drain (`HttpDrain`): readiness answers 503 at once; the listener stays open and requests are
 *    served as usual, each answer closing its connection, until load balancers stopped sending
 *    and clients dropped their idle connections (`options.drain`);
 * 2. close the listening socket (no new connections: the gateway sends such a request to another
 *    replica; idle keep-alive connections are closed) and wait for in-flight requests to finish.
 *    Their answers close their connections, so a request pipelined behind one is never run (its
 *    client knows to send it again); one that still reaches an open server that is closing gets
 *    Fastify's 503 + `Connection: close` before any hook, also never run;
 * 3. `app.close()`, which runs the modules' shutdown hooks (outbox relay flush, consumers leaving
 *    their group, database pool);
 * 4. `afterClose` (the spans still buffered are exported).
 * Resolves to the exit code: 0, or 1 when that took longer than `timeoutMs` or failed.
 */
export async function closeGracefully(app: NestFastifyApplication, logger: Logger, signal: string, options: CloseOptions): Promise<number> {
  const { timeoutMs, drain: limits, afterClose } = options;
  logger.info({ signal }, 'shutting down: draining in-flight requests');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out');
      resolve(1);
    }, timeoutMs);
  });
  const closed = (async () => {
    try {
      const began = Date.now();
      const drain = httpDrainOf(app);
      drain?.begin();
      if (drain && limits) await drain.settled(limits);
      logger.info({ ms: Date.now() - began, idleConnections: drain?.idleConnections() }, 'shutting down: listener closing');
      await app.getHttpAdapter().close();
      logger.info({ ms: Date.now() - began }, 'shutting down: requests finished, running shutdown hooks');
      await app.close();
      await afterClose?.();
      logger.info('shut down');
      return 0;
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      return 1;
    }
  })();
  const code = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  return code;
}
