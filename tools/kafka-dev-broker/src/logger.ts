/** The logging the broker needs; adapt pino or console to it. */
export interface KafkaDevBrokerLogger {
  debug(message: string, context?: Record<string, unknown>): void;
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

const ignore = (): void => undefined;

/** Default: quiet, except for what means a client or the broker is doing something wrong. */
export const warningsOnlyLogger: KafkaDevBrokerLogger = {
  debug: ignore,
  info: ignore,
  warn: (message, context) => console.warn(`[kafka-dev-broker] ${message}`, context ?? ''),
  error: (message, context) => console.error(`[kafka-dev-broker] ${message}`, context ?? ''),
};

/** For the CLI: one line per event on stdout/stderr. */
export const consoleLogger: KafkaDevBrokerLogger = {
  debug: ignore,
  info: (message, context) => console.log(`[kafka-dev-broker] ${message}`, context ?? ''),
  warn: warningsOnlyLogger.warn,
  error: warningsOnlyLogger.error,
};
