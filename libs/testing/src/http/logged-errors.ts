/** An error line a service under test logged: what a 5xx answer of a test is explained by. */
export interface LoggedError {
  /** The request id (`x-request-id`), as createServiceApp names it in every request line. */
  requestId?: string;
  msg?: string;
  /** The error as pino serialised it: its type, message (a SQL error's text) and, for a driver error, its code. */
  err?: { type?: string; message?: string; code?: string; detail?: string };
}

const ERROR_LEVEL = 50;
/** The last lines kept: a test that logs more errors than this has its cause among the first ones read. */
const KEPT = 200;

/**
 * The pino destination of a service under test: keeps its error lines (level 50 and above) in
 * memory, so a 5xx in a test can say what the service logged for it (`RecordingFetch`), and
 * writes every line to stdout only when TEST_LOG_LEVEL asked for logs.
 */
export class LoggedErrors {
  private readonly lines: LoggedError[] = [];

  constructor(private readonly echo: boolean) {}

  /** pino's destination interface: one finished JSON line per call. */
  write(line: string): void {
    if (this.echo) process.stdout.write(line);
    if (!line.includes('"level":5') && !line.includes('"level":6')) return;
    try {
      const parsed = JSON.parse(line) as LoggedError & { level?: number };
      if ((parsed.level ?? 0) < ERROR_LEVEL) return;
      this.lines.push({ requestId: parsed.requestId, msg: parsed.msg, err: parsed.err && { type: parsed.err.type, message: parsed.err.message, code: parsed.err.code, detail: parsed.err.detail } });
      if (this.lines.length > KEPT) this.lines.shift();
    } catch {
      // Not a JSON line (pino writes JSON): nothing to keep.
    }
  }

  /** What was logged for a request, by its `x-request-id`. */
  for(requestId: string | null): string[] {
    return requestId ? this.lines.filter((line) => line.requestId === requestId).map(describe) : [];
  }
}

function describe(line: LoggedError): string {
  const err = line.err;
  const cause = err ? `${err.type ?? 'Error'}: ${err.message ?? ''}${err.code ? ` (${err.code})` : ''}${err.detail ? ` ${err.detail}` : ''}` : '';
  return [line.msg, cause].filter(Boolean).join(': ');
}
