import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { bindRequestLog } from '@erp/auth';
import { createLogger } from '@erp/observability';
import { median } from '../framework/measure';

export interface LogLineCostOptions {
  /** Requests per round and variant. */
  requests: number;
  /** Rounds; the variants alternate within each, and the median round counts. */
  rounds: number;
}

/** µs of this process's CPU per request (user + system), median of the rounds, per variant. */
export type LogLineCostResult = Record<string, number>;

/** What Fastify's request serializers leave of a request and a reply: the fields of the line. */
const REQUEST = { method: 'GET', url: '/v1/customer?status=Active&pageSize=100&pageNumber=433', host: '127.0.0.1:3001', remoteAddress: '127.0.0.1', remotePort: 51234 };
const RESPONSE = { statusCode: 200 };
const COMPANY = { companyId: 'bench-co', applicationType: 'erp-bench' };

/** Lines are built and handed to a stream that drops them: the bench measures building, not the disk. */
const discard = () => new Writable({ write: (_chunk, _encoding, callback) => callback() });

/** The redaction as it was before issue 42's second step: wildcard paths in pino's `redact`. */
const SECRET_KEYS = ['authorization', 'password', 'secret', 'token', 'privateKeyPem'];
const WILDCARD_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`), 'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', '*.headers.authorization', '*.headers.cookie'];

type RequestLog = (root: Logger, i: number) => void;

/** Fastify's child per request, then what the AuthGuard adds, then the one request line. */
const VARIANTS: Array<{ name: string; root: () => Logger; request: RequestLog }> = [
  {
    // The floor: pino with no redaction and the line logged on Fastify's child as it is.
    name: 'pino, no redaction, no company',
    root: () => pino({ base: { service: 'customers-v1' }, timestamp: pino.stdTimeFunctions.isoTime }, discard()),
    request: (root, i) => root.child({ requestId: `req-${i}` }).info({ req: REQUEST, res: RESPONSE, responseTime: 3.1 }, 'request completed'),
  },
  {
    name: 'as shipped (createLogger, bindRequestLog)',
    root: () => createLogger({ service: 'customers-v1', destination: discard() }),
    request: (root, i) => {
      const request = { log: root.child({ requestId: `req-${i}` }) };
      bindRequestLog(request as never, COMPANY);
      request.log.info({ req: REQUEST, res: RESPONSE, responseTime: 3.1 }, 'request completed');
    },
  },
  {
    name: 'before (wildcard redact paths, a child per request for the company)',
    root: () => pino({ base: { service: 'customers-v1' }, timestamp: pino.stdTimeFunctions.isoTime, redact: { paths: WILDCARD_PATHS, censor: '[redacted]' } }, discard()),
    request: (root, i) => root.child({ requestId: `req-${i}` }).child(COMPANY).info({ req: REQUEST, res: RESPONSE, responseTime: 3.1 }, 'request completed'),
  },
];

/**
 * What a service's logging costs per request, in one process: Fastify's child logger for the
 * request, the company bound to it, and the one request line, built as shipped, as before issue
 * 42's second step, and as bare pino does (the floor), alternating over the rounds after a warm-up.
 * CPU, not wall time: nothing here waits.
 */
export function runLogLineCostBench(options: LogLineCostOptions): LogLineCostResult {
  const roots = VARIANTS.map((variant) => variant.root());
  const perVariant: number[][] = VARIANTS.map(() => []);
  const warmup = Math.min(options.requests, 20_000);
  VARIANTS.forEach((variant, v) => {
    for (let i = 0; i < warmup; i++) variant.request(roots[v], i);
  });
  for (let round = 0; round < options.rounds; round++) {
    VARIANTS.forEach((variant, v) => {
      const before = process.cpuUsage();
      for (let i = 0; i < options.requests; i++) variant.request(roots[v], i);
      const used = process.cpuUsage(before);
      perVariant[v].push((used.user + used.system) / options.requests);
    });
  }
  return Object.fromEntries(VARIANTS.map((variant, v) => [variant.name, Math.round(median(perVariant[v]) * 100) / 100]));
}

/** The result as a markdown table, each variant against the floor (the first). */
export function logLineCostTable(result: LogLineCostResult): string {
  const [floorName] = Object.keys(result);
  const floor = result[floorName];
  return [
    '| variant | µs CPU per request | against the floor |',
    '| --- | --- | --- |',
    ...Object.entries(result).map(([name, micros]) => `| ${name} | ${micros.toFixed(1)} | ${(micros / floor).toFixed(2)}× |`),
  ].join('\n');
}
