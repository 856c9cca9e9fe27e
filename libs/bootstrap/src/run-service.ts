import type { DynamicModule } from '@nestjs/common';
import { createLogger } from '@erp/observability';
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
 * logger, app, listen. SIGTERM/SIGINT close the app, which drains in-flight requests first.
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
  const logger = createLogger({ service: options.name, level: config.LOG_LEVEL, pretty: config.LOG_PRETTY === 'true' });
  try {
    const app = await createServiceApp(options.module(config), {
      logger,
      errorFamily: options.errorFamily,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    });
    const url = await listen(app, config.PORT, config.HOST);
    logger.info({ url }, `${options.name} listening`);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${err.message}\n`);
      process.exit(1);
    }
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }
}
