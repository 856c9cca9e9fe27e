/**
 * What framework-free service code (the messaging classes, background loops, workers) logs
 * through. Nest's `Logger` fits it as it is, so inside a service the lines land in the service's
 * pino log under the logger's context; outside Nest (tests, tools) pass any object with these
 * methods, or `SILENT_LOGGER`. One interface, so that code moving between a lib and an app never
 * needs an adapter.
 */
export interface ServiceLogger {
  debug(message: string): void;
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const SILENT_LOGGER: ServiceLogger = {
  debug: () => undefined,
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** An error as one log line: its class name tells a timeout from a refusal at a glance. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
