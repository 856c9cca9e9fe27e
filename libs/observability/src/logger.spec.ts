import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import type { DestinationStream } from 'pino';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { createLogger, PinoNestLogger, redactSecrets, requestIdFor } from './logger';
import { shutdownTracing, startTracing, tracer } from './tracing/tracing';

// createLogger writes to stdout; to read its output, the real pino is wrapped so that every logger
// writes to the stream the test supplies. Redaction and levels stay pino's own.
let mockDestination: DestinationStream | undefined;
jest.mock('pino', () => {
  const actual = jest.requireActual('pino');
  const wrapped = (options: object) => actual(options, mockDestination);
  return Object.assign(wrapped, actual, { default: wrapped, pino: wrapped });
});

function capture(): { lines: () => Array<Record<string, unknown>>; text: () => string } {
  const chunks: string[] = [];
  mockDestination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return {
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function requestWithId(id: string | string[] | undefined): IncomingMessage {
  return { headers: id === undefined ? {} : { 'x-request-id': id } } as unknown as IncomingMessage;
}

describe('requestIdFor', () => {
  it.each(['abc-123', '4f7c2a9e-1b2d-4c3e-8f9a-0b1c2d3e4f5a', 'gw:1.2_3', 'a'.repeat(128)])(
    'keeps the valid id %s',
    (id) => {
      expect(requestIdFor(requestWithId(id))).toBe(id);
    },
  );

  it.each([
    ['an over-long id', 'a'.repeat(129)],
    ['an empty id', ''],
    ['an id with spaces', 'abc 123'],
    ['an id with a line break', 'abc\nforged-log-line'],
    ['an id with markup', '<script>'],
    ['a non-ASCII id', 'idé'],
  ])('replaces %s with a new UUID', (_label, id) => {
    expect(requestIdFor(requestWithId(id))).toMatch(UUID);
  });

  it('replaces an id sent twice', () => {
    expect(requestIdFor(requestWithId(['abc', 'def']))).toMatch(UUID);
  });

  it('mints a different UUID for each request without an id', () => {
    const first = requestIdFor(requestWithId(undefined));
    const second = requestIdFor(requestWithId(undefined));
    expect(first).toMatch(UUID);
    expect(second).not.toBe(first);
  });
});

describe('createLogger', () => {
  it('writes JSON lines naming the service, with an ISO time', () => {
    const out = capture();
    createLogger({ service: 'customers-v1' }).info('hello');
    const [line] = out.lines();
    expect(line).toMatchObject({ service: 'customers-v1', name: 'customers-v1', msg: 'hello', level: 30 });
    expect(line.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('honours the level', () => {
    const out = capture();
    const logger = createLogger({ service: 's', level: 'warn' });
    logger.info('quiet');
    logger.warn('loud');
    expect(out.lines().map((l) => l.msg)).toEqual(['loud']);
  });

  it('redacts the Authorization and Cookie headers of a logged request', () => {
    const out = capture();
    createLogger({ service: 's' }).info(
      { req: { method: 'GET', headers: { authorization: 'Bearer eyJ.secret.sig', cookie: 'session=abc' } } },
      'request',
    );
    expect(out.text()).not.toContain('eyJ.secret.sig');
    expect(out.text()).not.toContain('session=abc');
    expect(out.lines()[0]).toMatchObject({
      req: { method: 'GET', headers: { authorization: '[redacted]', cookie: '[redacted]' } },
    });
  });

  it('redacts headers logged under any name', () => {
    const out = capture();
    const logger = createLogger({ service: 's' });
    logger.info({ headers: { authorization: 'Bearer top-level' } }, 'a');
    logger.info({ upstream: { headers: { authorization: 'Bearer nested', cookie: 'c=1' } } }, 'b');
    expect(out.text()).not.toMatch(/Bearer (top-level|nested)|c=1/);
  });

  it.each(['authorization', 'password', 'secret', 'token', 'privateKeyPem'])(
    'redacts a top-level %s',
    (key) => {
      const out = capture();
      createLogger({ service: 's' }).info({ [key]: 'do-not-log-me' }, 'm');
      expect(out.text()).not.toContain('do-not-log-me');
      expect(out.lines()[0][key]).toBe('[redacted]');
    },
  );

  it.each(['authorization', 'password', 'secret', 'token', 'privateKeyPem'])('redacts a nested %s', (key) => {
    const out = capture();
    createLogger({ service: 's' }).info({ subscription: { id: 'sub-1', [key]: 'do-not-log-me' } }, 'm');
    expect(out.text()).not.toContain('do-not-log-me');
    expect(out.lines()[0].subscription).toEqual({ id: 'sub-1', [key]: '[redacted]' });
  });

  it.each(['authorization', 'cookie', 'password', 'secret', 'token', 'privateKeyPem'])('redacts %s at any depth, in arrays too', (key) => {
    const out = capture();
    createLogger({ service: 's' }).info({ err: { cause: { request: { [key]: 'deep-secret' } } }, items: [{ [key]: 'in-array' }] }, 'm');
    expect(out.text()).not.toMatch(/deep-secret|in-array/);
    expect(out.lines()[0]).toMatchObject({ err: { cause: { request: { [key]: '[redacted]' } } }, items: [{ [key]: '[redacted]' }] });
  });

  it("redacts a child logger's bindings", () => {
    const out = capture();
    createLogger({ service: 's' }).child({ token: 'bound-secret', companyId: '1000001' }).info('m');
    expect(out.text()).not.toContain('bound-secret');
    expect(out.lines()[0]).toMatchObject({ token: '[redacted]', companyId: '1000001' });
  });

  it('leaves text that only looks like a secret key, in a value or a message, as written', () => {
    const out = capture();
    createLogger({ service: 's' }).info({ note: '{"token":"not-a-key"}', tokens: 3 }, 'the "password": field is required');
    expect(out.lines()[0]).toMatchObject({ note: '{"token":"not-a-key"}', tokens: 3, msg: 'the "password": field is required' });
  });

  it('writes a line without a secret key exactly as pino made it', () => {
    const line = '{"level":30,"time":"2026-11-28T08:00:00.000Z","service":"s","req":{"url":"/v1/customer?token=x"},"msg":"m"}\n';
    expect(redactSecrets(line)).toBe(line);
  });

  it('withholds a line that names a secret key but is not JSON', () => {
    const line = '{"level":30,"token":"half-written\n';
    expect(redactSecrets(line)).not.toContain('half-written');
    expect(JSON.parse(redactSecrets(line))).toMatchObject({ level: 50, msg: expect.stringContaining('withheld') });
  });

  it('keeps ordinary fields', () => {
    const out = capture();
    createLogger({ service: 's' }).info({ companyId: '1000001', status: 200 }, 'm');
    expect(out.lines()[0]).toMatchObject({ companyId: '1000001', status: 200 });
  });
});

describe('PinoNestLogger', () => {
  it('routes Nest log levels to pino levels with the context', () => {
    const out = capture();
    const nest = new PinoNestLogger(createLogger({ service: 's', level: 'trace' }));
    nest.log('started', 'NestFactory');
    nest.warn('careful', 'X');
    nest.error('failed', 'stack here', 'Y');
    nest.debug('details', 'Z');
    nest.verbose('chatter', 'W');
    expect(out.lines().map((l) => [l.level, l.msg, l.context])).toEqual([
      [30, 'started', 'NestFactory'],
      [40, 'careful', 'X'],
      [50, 'failed', 'Y'],
      [20, 'details', 'Z'],
      [10, 'chatter', 'W'],
    ]);
    expect(out.lines()[2].trace).toBe('stack here');
  });
});

describe('createLogger with traceIds (tracing on)', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() =>
    startTracing({ serviceName: 'logger-test', tracesUrl: 'http://127.0.0.1:9/v1/traces', sampler: 'always_on', samplerRatio: 1 }, { exporter }),
  );
  afterAll(() => shutdownTracing());

  it('adds trace_id and span_id of the active span to each line, and nothing outside a span', () => {
    const out = capture();
    const logger = createLogger({ service: 'orders', traceIds: true });
    const span = tracer().startSpan('work');
    context.with(trace.setSpan(context.active(), span), () => logger.child({ requestId: 'r1' }).info('inside'));
    span.end();
    logger.info('outside');
    const [inside, outside] = out.lines();
    expect(inside).toMatchObject({ msg: 'inside', requestId: 'r1', trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
    expect(outside.trace_id).toBeUndefined();
    expect(outside.span_id).toBeUndefined();
  });

  it('leaves the ids out without the option (tracing off)', () => {
    const out = capture();
    const span = tracer().startSpan('work');
    context.with(trace.setSpan(context.active(), span), () => createLogger({ service: 'orders' }).info('inside'));
    span.end();
    expect(out.lines()[0].trace_id).toBeUndefined();
  });
});
