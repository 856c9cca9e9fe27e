import { Body, Controller, Get, Module, Param, Post, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { FastifyRequest } from 'fastify';
import { activeTraceCarrier, createLogger, flushTracing, isTracingEnabled, shutdownTracing, startTracing } from '@erp/observability';
import { createServiceApp, listen } from './index';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';

@Controller()
class EchoController {
  /** What the handler sees as the active trace, after the JSON body was read and validated. */
  @Post('v1/echo/:id')
  echo(@Param('id') id: string, @Body() body: unknown, @Req() request: FastifyRequest): object {
    // What the AuthGuard sets on an authenticated request.
    (request as FastifyRequest & { auth?: object }).auth = { companyId: '1000001' };
    return { id, body, carrier: activeTraceCarrier() ?? null };
  }

  @Get('v1/boom')
  boom(): never {
    throw new Error('boom');
  }
}

@Module({ controllers: [EchoController] })
class EchoModule {}

async function startApp(): Promise<{ app: NestFastifyApplication; url: string }> {
  const app = await createServiceApp(EchoModule, {
    logger: createLogger({ service: 'http-tracing-test', level: 'silent' }),
    errorFamily: 'by-path',
  });
  return { app, url: await listen(app, 0, '127.0.0.1') };
}

async function spansNamed(exporter: InMemorySpanExporter, name: string): Promise<ReadableSpan[]> {
  await flushTracing();
  return exporter.getFinishedSpans().filter((span) => span.name === name);
}

describe('HTTP server spans (createServiceApp with tracing on)', () => {
  const exporter = new InMemorySpanExporter();
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    await startTracing(
      { serviceName: 'http-tracing-test', tracesUrl: 'http://127.0.0.1:9/v1/traces', sampler: 'parentbased_always_on', samplerRatio: 1 },
      { exporter },
    );
    ({ app, url } = await startApp());
  });

  afterAll(async () => {
    await app?.close();
    await shutdownTracing();
  });

  beforeEach(() => exporter.reset());

  it("continues the caller's traceparent, and the handler runs in the server span after body parsing", async () => {
    const response = await fetch(`${url}/v1/echo/42`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`,
        tracestate: 'vendor=abc',
        'x-request-id': 'req-tracing-1',
      },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { carrier: { traceparent: string; tracestate?: string } | null };

    const [span] = await spansNamed(exporter, 'POST /v1/echo/:id');
    expect(span).toBeDefined();
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/echo/:id',
      'url.path': '/v1/echo/42',
      'http.response.status_code': 201,
      'erp.request_id': 'req-tracing-1',
      'erp.company_id': '1000001',
    });
    expect(span.resource.attributes['service.name']).toBe('http-tracing-test');
    // The active context in the handler is the server span itself (what the outbox records).
    expect(answer.carrier).toEqual({ traceparent: `00-${TRACE_ID}-${span.spanContext().spanId}-01`, tracestate: 'vendor=abc' });
  });

  it('keeps the server span active when the body arrives later, in pieces', async () => {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode('{"hello":'));
        await new Promise((resolve) => setTimeout(resolve, 200));
        controller.enqueue(encoder.encode('"world"}'));
        controller.close();
      },
    });
    const response = await fetch(`${url}/v1/echo/9`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(201);
    const answer = (await response.json()) as { body: unknown; carrier: { traceparent: string } | null };
    expect(answer.body).toEqual({ hello: 'world' });
    const [span] = await spansNamed(exporter, 'POST /v1/echo/:id');
    expect(answer.carrier?.traceparent).toBe(`00-${TRACE_ID}-${span.spanContext().spanId}-01`);
  });

  it('starts a new trace without a traceparent, and ignores a malformed one', async () => {
    for (const headers of [{}, { traceparent: 'garbage' }] as Array<Record<string, string>>) {
      exporter.reset();
      const response = await fetch(`${url}/v1/echo/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
      expect(response.status).toBe(201);
      const [span] = await spansNamed(exporter, 'POST /v1/echo/:id');
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('marks a 5xx as an error, a 4xx not', async () => {
    expect((await fetch(`${url}/v1/boom`)).status).toBe(500);
    const [failed] = await spansNamed(exporter, 'GET /v1/boom');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes['http.response.status_code']).toBe(500);

    expect((await fetch(`${url}/v1/echo/1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' })).status).toBe(415);
    const [refused] = await spansNamed(exporter, 'POST /v1/echo/:id');
    expect(refused.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("respects the caller's not-sampled flag: nothing is exported", async () => {
    const response = await fetch(`${url}/v1/echo/7`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-00` },
      body: '{}',
    });
    expect(response.status).toBe(201);
    expect(await spansNamed(exporter, 'POST /v1/echo/:id')).toEqual([]);
  });
});

describe('HTTP with tracing off (the default)', () => {
  it('adds no hooks: the handler sees no trace context even when the caller sends one', async () => {
    expect(isTracingEnabled()).toBe(false);
    const { app, url } = await startApp();
    try {
      const response = await fetch(`${url}/v1/echo/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
        body: '{}',
      });
      expect(response.status).toBe(201);
      expect(((await response.json()) as { carrier: unknown }).carrier).toBeNull();
      expect(response.headers.get('traceparent')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
