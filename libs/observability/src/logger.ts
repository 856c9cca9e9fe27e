import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import { activeTraceIds } from './tracing/tracing';

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Human-readable output for a terminal (development); JSON otherwise. */
  pretty?: boolean;
  /**
   * Add `trace_id` and `span_id` of the active span to every line (set when tracing is on; off,
   * no per-line lookup is made).
   */
  traceIds?: boolean;
  /**
   * Bytes of log lines gathered before one write to stdout (LOG_BUFFER_BYTES; 0 or unset: each
   * line written at once). One write per line was most of what logging cost a service under load
   * (docs/benchmark-history/2026-11-28-cost-per-request.md). Gathered lines go out when the
   * buffer is full, at the latest after FLUSH_INTERVAL_MS, at once after an error line, and
   * synchronously when the process exits; a kill -9 or a crash of the runtime loses what is
   * gathered (at most this many bytes, or one interval's lines).
   */
  bufferBytes?: number;
  /** With `bufferBytes`: the longest a gathered line waits (default FLUSH_INTERVAL_MS). */
  flushIntervalMs?: number;
  /** Where lines go instead of stdout (`npm run bench:log-line`); ignored with `pretty` or `bufferBytes`. */
  destination?: DestinationStream;
}

/** The longest a gathered line waits for its write (see `bufferBytes`). */
export const FLUSH_INTERVAL_MS = 1000;
const ERROR_LEVEL = pino.levels.values.error;

/**
 * Keys whose values never reach a log line, at any depth: tokens, secrets and session cookies stay
 * out even if a later change starts logging whole headers, bodies or errors.
 */
const SECRET_KEYS = ['authorization', 'cookie', 'password', 'secret', 'token', 'privateKeyPem'];
const SECRET_KEY_SET = new Set(SECRET_KEYS);
const CENSOR = '[redacted]';

/**
 * Such a key as pino writes it into a line: compact JSON, so every key follows `{` or `,`. A
 * string value that holds the same text has its quotes escaped (`\"token\":`) and does not match.
 */
const SECRET_KEY_IN_LINE = new RegExp(`[{,]"(?:${SECRET_KEYS.join('|')})":`);

/** Written instead of a line that names a secret but is not JSON (pino writes JSON: never seen). */
const WITHHELD_LINE = `${JSON.stringify({ level: 50, msg: 'log line withheld: it names a secret key and could not be redacted' })}\n`;

function censorSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(censorSecrets);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries keeps a `__proto__` key of the line as a key (an assignment would set the prototype).
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_KEY_SET.has(key) ? CENSOR : censorSecrets(inner)]));
}

/**
 * pino's `hooks.streamWrite`: the finished line, with the value of every secret key censored.
 *
 * Why not pino's `redact`: it needs a path per place (`*.token` reaches one level down only), and a
 * path beginning with `*` runs its redactor (a selective clone and a second serialisation) on every
 * value of every line, strings and numbers included: that was most of what a request line cost
 * (docs/benchmark-history/2026-11-28-cost-per-request.md). Here a line without such a key costs one
 * regular-expression test; a line with one is parsed, censored at any depth and written again.
 */
export function redactSecrets(line: string): string {
  if (!SECRET_KEY_IN_LINE.test(line)) return line;
  try {
    return `${JSON.stringify(censorSecrets(JSON.parse(line)))}\n`;
  } catch {
    return WITHHELD_LINE;
  }
}

export function createLogger(options: LoggerOptions): Logger {
  // pino's own asynchronous logging (docs/asynchronous.md): sonic-boom gathers lines up to
  // minLength and pino flushes it synchronously on exit.
  const buffered = !options.pretty && (options.bufferBytes ?? 0) > 0;
  const destination = buffered ? pino.destination({ dest: 1, minLength: options.bufferBytes, sync: false }) : undefined;
  const flush = () => {
    try {
      destination?.flush();
    } catch {
      // Closed at exit: pino has written what was gathered.
    }
  };
  const logger = pino(
    {
      name: options.service,
      level: options.level ?? 'info',
      base: { service: options.service },
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(options.traceIds ? { mixin: activeTraceIds } : {}),
      hooks: {
        streamWrite: redactSecrets,
        // An error line is not left waiting: it is what an operator looks for first.
        ...(destination
          ? {
              logMethod(this: Logger, args: Parameters<Logger['info']>, method: Logger['info'], level: number) {
                method.apply(this, args);
                if (level >= ERROR_LEVEL) flush();
              },
            }
          : {}),
      },
      transport: options.pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
    },
    destination ?? (options.pretty ? undefined : options.destination),
  );
  if (destination) setInterval(flush, options.flushIntervalMs ?? FLUSH_INTERVAL_MS).unref();
  return logger;
}

// Accept a caller's request id only if it is a short, plain token; otherwise mint one.
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify `genReqId`: keep a valid incoming `x-request-id` (set by the gateway), else a new UUID. */
export function requestIdFor(request: IncomingMessage): string {
  const incoming = request.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
}

/** Routes Nest's own log lines (bootstrap, module init) into the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
