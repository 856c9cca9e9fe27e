/**
 * Exit codes scripts can rely on (documented in tools/cli/README.md). Grouped by what a script
 * would do next: fix the call (2, 4), get a new token (3), re-read and retry (5), retry later (6).
 */
export const ExitCode = {
  Ok: 0,
  /** A bug or an answer the CLI did not expect. */
  Unexpected: 1,
  /** Bad command line: unknown command or option, missing or malformed argument. */
  Usage: 2,
  /** 401/403: token missing, expired, from another issuer, or lacking the scope or company. */
  Auth: 3,
  /** 404 and every other 4xx the API refused (validation, 406, 413...). */
  Client: 4,
  /** 409 / 412: the record changed or already exists. */
  Conflict: 5,
  /** The API could not be reached, or answered 429 or 5xx (503 included): retry later. */
  Unavailable: 6,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code for an HTTP status the API answered with. */
export function exitCodeForStatus(status: number): ExitCodeValue {
  if (status === 401 || status === 403) return ExitCode.Auth;
  if (status === 409 || status === 412) return ExitCode.Conflict;
  if (status === 429 || status >= 500) return ExitCode.Unavailable;
  if (status >= 400) return ExitCode.Client;
  return ExitCode.Unexpected;
}
