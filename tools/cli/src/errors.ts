import { CommanderError } from 'commander';
import { CliError } from './cli-error';
import { ExitCode, exitCodeForStatus, type ExitCodeValue } from './exit-codes';

/** What main.ts prints (one line, on stderr) and exits with. */
export interface Failure {
  exitCode: ExitCodeValue;
  /** Empty when commander already printed its own message. */
  message: string;
}

/** The fields of the client's ErpApiError that the CLI reports. */
interface ApiErrorLike {
  status: number;
  message: string;
  requestId?: string;
  retryAfter?: number;
  idempotencyKey?: string;
}

function isApiError(error: unknown): error is ApiErrorLike & Error {
  return error instanceof Error && typeof (error as Partial<ApiErrorLike>).status === 'number';
}

// Checked by shape and name rather than instanceof, so that main.ts need not load @erp/client for
// commands that never call the API (token, usage errors); the client's classes carry these names.
function isNetworkError(error: unknown): error is Error & { url?: string; cause?: unknown; idempotencyKey?: string } {
  return error instanceof Error && error.name === 'ErpNetworkError';
}

function requestIdSuffix(error: ApiErrorLike): string {
  return error.requestId ? ` (request id ${error.requestId})` : '';
}

/** How to send a write that failed again as the same write (the client's retries are spent). */
function keySuffix(error: { idempotencyKey?: string }): string {
  const key = error.idempotencyKey;
  return key ? `; to send it again as the same write: --idempotency-key ${/\s/.test(key) ? JSON.stringify(key) : key}` : '';
}

/**
 * Node's fetch hides the system reason (ECONNREFUSED, ENOTFOUND...) in `cause`, possibly nested;
 * without one (a timeout, a body cut short) the error's own message says what happened.
 */
export function networkReason(error: Error): string {
  let deepest = error;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    deepest = current;
    current = current.cause;
  }
  // e.g. "GET /v1/customer: fetch failed (bad port)"; a timeout's own message is the clearest.
  return deepest === error || error.message.includes(deepest.message) || deepest.name === 'AbortError' ? error.message : `${error.message} (${deepest.message})`;
}

/** Turns anything a command threw into the one-line message and the documented exit code. */
export function describeFailure(error: unknown, baseUrl: string): Failure {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message };
  if (error instanceof CommanderError) {
    // Help and --version are not failures; everything else commander refuses is a usage error.
    const ok = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help';
    return { exitCode: ok ? ExitCode.Ok : ExitCode.Usage, message: '' };
  }
  if (isNetworkError(error)) {
    return { exitCode: ExitCode.Unavailable, message: `could not reach ${error.url ?? baseUrl}: ${networkReason(error)}${keySuffix(error)}` };
  }
  if (error instanceof Error && error.name === 'ErpConflictError') return { exitCode: ExitCode.Conflict, message: error.message };
  if (isApiError(error)) {
    const { status } = error;
    const exitCode = exitCodeForStatus(status);
    if (status === 401) {
      return { exitCode, message: `not authenticated (401): the token is missing, expired or not trusted by ${baseUrl}; get a new one (erp token)${requestIdSuffix(error)}` };
    }
    if (status === 403) {
      return { exitCode, message: `forbidden (403): the token lacks the scope or company for this call: ${error.message}${requestIdSuffix(error)}` };
    }
    const retry = error.retryAfter !== undefined ? `; retry after ${error.retryAfter} s` : '';
    // The client's messages already read `GET /v1/customer/42 -> 404: <the API's message>`.
    const text = error.message.includes(String(status)) ? error.message : `${status}: ${error.message}`;
    return { exitCode, message: `${text}${retry}${requestIdSuffix(error)}${status >= 500 || status === 409 || status === 429 ? keySuffix(error) : ''}` };
  }
  if (error instanceof Error && (error as NodeJS.ErrnoException).code === 'EPIPE') return { exitCode: ExitCode.Ok, message: '' };
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: ExitCode.Unexpected, message: `unexpected error: ${detail}` };
}
