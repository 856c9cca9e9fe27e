import Fastify, { type FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';
import { instrumentHttpMetrics, UNMATCHED_ROUTE } from './http-metrics';
import { defineCounter, defineGauge, metricsRegistry } from './metrics-registry';
import { startMetricsServer } from './metrics-server';

/** The value of one series in a Prometheus text exposition, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('instrumentHttpMetrics', () => {
  let app: FastifyInstance;
  let base: string;
  // Over real HTTP: Fastify's inject() loads an ESM-only dependency Jest cannot require.
  const get = (path: string) => fetch(`${base}${path}`);

  beforeAll(async () => {
    app = Fastify();
    instrumentHttpMetrics(app);
    app.get('/v1/customer/:customerNumber', async () => ({ ok: true }));
    app.get('/fails', async (_request, reply) => reply.code(503).send({}));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(() => app.close());

  const scrape = async () => {
    const response = await get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('counts requests by route pattern and status, never by raw URL', async () => {
    const series =
      'http_request_duration_seconds_count{method="GET",route="/v1/customer/:customerNumber",status_code="200"}';
    const before = sample(await scrape(), series) ?? 0;
    // Ids no number in the exposition can contain (a numeric id once matched a process gauge).
    await get('/v1/customer/raw-id-a');
    await get('/v1/customer/raw-id-b?x=1');
    const text = await scrape();
    expect(sample(text, series)).toBe(before + 2);
    expect(text).not.toContain('raw-id-');
    expect(text).not.toContain('x=1');
    expect(text).toMatch(
      /http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/customer\/:customerNumber",status_code="200"\}/,
    );
  });

  it('labels error statuses and unmatched paths', async () => {
    await get('/fails');
    await get('/no/such/path/123');
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/fails",status_code="503"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        `http_request_duration_seconds_count{method="GET",route="${UNMATCHED_ROUTE}",status_code="404"}`,
      ),
    ).toBe(1);
    expect(text).not.toContain('/no/such/path');
  });

  it('includes the default process and Node.js series', async () => {
    const text = await scrape();
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('serves series other libs define on the shared registry', async () => {
    const backlog = defineGauge({ name: 'test_outbox_backlog', help: 'rows waiting', labelNames: ['topic'] });
    backlog.set({ topic: 't' }, 7);
    expect(sample(await scrape(), 'test_outbox_backlog{topic="t"}')).toBe(7);
    metricsRegistry.removeSingleMetric('test_outbox_backlog');
  });
});

describe('defineCounter', () => {
  it('returns the metric already registered under the name', () => {
    const first = defineCounter({ name: 'test_defined_twice_total', help: 'h' });
    expect(first).toBeInstanceOf(Counter);
    expect(defineCounter({ name: 'test_defined_twice_total', help: 'h' })).toBe(first);
    metricsRegistry.removeSingleMetric('test_defined_twice_total');
  });

  it('refuses a name already used by another metric type', () => {
    defineCounter({ name: 'test_type_clash', help: 'h' });
    expect(() => defineGauge({ name: 'test_type_clash', help: 'h' })).toThrow(/another type/);
    metricsRegistry.removeSingleMetric('test_type_clash');
  });
});

describe('instrumentHttpMetrics with serveMetrics: false, and startMetricsServer', () => {
  it('keeps counting requests but leaves /metrics to the metrics listener', async () => {
    const app = Fastify();
    instrumentHttpMetrics(app, { serveMetrics: false });
    app.get('/v1/only-here', async () => ({ ok: true }));
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const metrics = await startMetricsServer(0, '127.0.0.1');
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(404);
      await fetch(`${base}/v1/only-here`);
      const text = await (await fetch(`${metrics.url}/metrics`)).text();
      expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/v1/only-here",status_code="200"}')).toBe(1);
      expect((await fetch(`${metrics.url}/other`)).status).toBe(404);
      expect((await fetch(`${metrics.url}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await app.close();
      await metrics.close();
    }
    await expect(fetch(`${metrics.url}/metrics`)).rejects.toThrow();
  });
});
