import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { HealthModule, ReadinessChecks } from '@erp/observability';
import { createServiceApp, listen } from './index';

/** Every line the app logs, parsed. */
const lines: Array<{ level: number; msg?: string; context?: string }> = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as (typeof lines)[number]);
      done();
    },
  }),
);

@Module({ imports: [HealthModule.forRoot()] })
class ReadinessTestModule {}

/**
 * Issue 48: while a dependency is down (every `npm start` until the services are up, every outage)
 * the gateway and the kubelet probe readiness twice a second. Each probe's 503 used to go through the
 * exception filter as an error with a stack; it is an answer, logged once when readiness changes.
 */
describe('readiness while a check fails, over HTTP', () => {
  let app: NestFastifyApplication;
  let url: string;
  let kafkaUp = false;

  beforeAll(async () => {
    app = await createServiceApp(ReadinessTestModule, { logger, errorFamily: 'by-path' });
    app.get(ReadinessChecks).add(async () => ({ kafka: { status: kafkaUp ? 'up' : 'down' } }));
    url = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => app.close());

  it('answers 503 with the failed check in the body, logs no error, and one line per change', async () => {
    const probes = [];
    for (let i = 0; i < 5; i++) probes.push(await fetch(`${url}/health/ready`));
    for (const probe of probes) {
      expect(probe.status).toBe(503);
      expect(await probe.json()).toMatchObject({ status: 'error', error: { kafka: { status: 'down' } } });
    }
    kafkaUp = true;
    const ready = await fetch(`${url}/health/ready`);
    expect([ready.status, await ready.json()]).toEqual([200, expect.objectContaining({ status: 'ok' })]);

    // pino levels: 40 warn, 50 error.
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    // Never ready before: starting, not a dependency lost; so info, not warn, and once.
    expect(lines.filter((line) => line.level === 40)).toEqual([]);
    expect(lines.filter((line) => line.context === 'Readiness').map((line) => line.msg)).toEqual([
      'not ready yet: kafka (logged once until it changes)',
      'ready',
    ]);
  });
});
