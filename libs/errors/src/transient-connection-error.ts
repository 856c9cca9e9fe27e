/**
 * The one answer to "is the database unreachable right now?" (down, restarting, refusing or
 * dropping connections), as opposed to a problem of the statement or the data. Three callers
 * act on it: a request answers 503 + Retry-After instead of 500 (toApiError), start-up retries
 * its connection (DatabaseModule), and an event consumer waits for the database instead of
 * spending a message's attempts (libs/messaging).
 */

/**
 * SQLSTATEs: admin_shutdown / crash_shutdown (the server is going away), cannot_connect_now
 * (starting up), too_many_connections, connection exceptions.
 */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08006']);

/** Socket errors of the connection itself. */
const TRANSIENT_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EAI_AGAIN', 'EPIPE']);

/** pg's messages for the same, where it gives no code. */
const TRANSIENT_MESSAGES = [
  /timeout exceeded when trying to connect/i,
  /Connection terminated/i,
  /connect ECONNREFUSED/i,
  // A client whose connection already failed, or was closed under it.
  /Client has encountered a connection error and is not queryable/i,
  /Client was closed and is not queryable/i,
];

/**
 * TypeORM's query runner releases its connection by itself when the connection emits 'error'
 * (the server went away); the transaction's next query then throws one of these. Every
 * transaction here goes through `manager.transaction`, which releases its runner only after the
 * callback, so in this code base they mean a lost connection. Found by the outage case
 * (RELIABILITY.md): a PATCH in flight when PostgreSQL stopped got a 500.
 */
const TRANSIENT_ERROR_NAMES = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

export function isTransientConnectionError(error: unknown): boolean {
  if (error instanceof AggregateError && error.errors.some(isTransientConnectionError)) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, message, driverError } = error as { code?: unknown; name?: unknown; message?: unknown; driverError?: unknown };
  // TypeORM's QueryFailedError keeps pg's error as driverError.
  if (driverError && isTransientConnectionError(driverError)) return true;
  if (typeof code === 'string' && (TRANSIENT_SQLSTATES.has(code) || TRANSIENT_NODE_CODES.has(code))) return true;
  if (typeof name === 'string' && TRANSIENT_ERROR_NAMES.has(name)) return true;
  return typeof message === 'string' && TRANSIENT_MESSAGES.some((pattern) => pattern.test(message));
}
