import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp, listen, loadConfig, type ServiceConfig } from '@erp/bootstrap';
import type { ErrorFamily } from '@erp/errors';
import { createLogger } from '@erp/observability';
import { LoggedErrors } from './logged-errors';

export interface TestServiceOptions<C extends ServiceConfig> {
  name: string;
  config: new () => C;
  env: Record<string, string>;
  module: (config: C) => DynamicModule;
  errorFamily: ErrorFamily | 'by-path';
}

export interface RunningTestService {
  url: string;
  app: NestFastifyApplication;
  /** The error lines the service logged (kept whatever TEST_LOG_LEVEL is), for the 5xx a test met. */
  loggedErrors: LoggedErrors;
  close(): Promise<void>;
}

/**
 * Boots a service exactly as its main.ts does (same config validation, app factory and pipes)
 * on a free port of 127.0.0.1, so tests talk to it over real HTTP. Logs reach stdout only when
 * TEST_LOG_LEVEL is set (`error`, `info`, `debug`, ...); error lines are kept in any case, so that
 * a 5xx the test meets carries what the service logged for it (`RecordingFetch`).
 */
export async function startTestService<C extends ServiceConfig>(
  options: TestServiceOptions<C>,
): Promise<RunningTestService> {
  const config = loadConfig(options.config, {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'error',
    ...options.env,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const loggedErrors = new LoggedErrors(process.env.TEST_LOG_LEVEL !== undefined);
  const logger = createLogger({ service: options.name, level: config.LOG_LEVEL, destination: loggedErrors });
  const app = await createServiceApp(options.module(config), {
    logger,
    errorFamily: options.errorFamily,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
  });
  const url = await listen(app, 0, '127.0.0.1');
  return { url, app, loggedErrors, close: () => app.close() };
}
