import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
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
}

const SECRET_KEYS = ['authorization', 'password', 'secret', 'token', 'privateKeyPem'];

/**
 * Paths that must never reach a log line. Tokens, secrets and signatures are redacted even if a
 * later change starts logging whole headers or bodies.
 */
const REDACTED_PATHS = [
  // `*.key` matches one level down only, so the top-level keys are listed too.
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.headers.authorization',
  '*.headers.cookie',
];

export function createLogger(options: LoggerOptions): Logger {
  return pino({
    name: options.service,
    level: options.level ?? 'info',
    base: { service: options.service },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...(options.traceIds ? { mixin: activeTraceIds } : {}),
    transport: options.pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  });
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
