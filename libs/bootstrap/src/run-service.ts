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
  });
  if (tracing) logTracingProblems(logger);
  try {
    const app = await createServiceApp(options.module(config), {
      logger,
      errorFamily: options.errorFamily,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      requestLogging: config.LOG_REQUESTS !== 'off',
      timeouts: {
        headersTimeoutMs: config.HEADERS_TIMEOUT_MS,
        requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
        idleSocketTimeoutMs: config.IDLE_SOCKET_TIMEOUT_MS,
      },
      serveMetrics: config.METRICS_PORT === undefined,
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
      void closeGracefully(app, logger, signal, config.SHUTDOWN_TIMEOUT_MS, afterClose).then((code) => process.exit(code));
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
 * Graceful shutdown, in order: close the listening socket (no new connections; idle keep-alive
 * connections are closed, a request arriving on a busy one gets 503 + `Connection: close`) and
 * wait for in-flight requests to finish; then `app.close()`, which runs the modules' shutdown
 * hooks (outbox relay flush, consumers leaving their group, database pool), then `afterClose`
 * (the spans still buffered are exported). Resolves to the exit
 * code: 0, or 1 when that took longer than `timeoutMs` or failed.
 */
export async function closeGracefully(
  app: NestFastifyApplication,
  logger: Logger,
  signal: string,
  timeoutMs: number,
  /** Runs last, inside the same time limit (runService: export the buffered spans). */
  afterClose?: () => Promise<void>,
): Promise<number> {
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
      await app.getHttpAdapter().close();
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
