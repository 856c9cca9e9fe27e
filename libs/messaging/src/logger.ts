/**
 * What the messaging classes log through. Nest's `Logger` fits it as it is, so inside a service
 * the lines land in the service's pino log; outside Nest (tests, the benchmark) pass any object
 * with these methods, or nothing for silence.
 */
export interface MessagingLogger {
  debug(message: string): void;
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const SILENT_LOGGER: MessagingLogger = {
  debug: () => undefined,
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
