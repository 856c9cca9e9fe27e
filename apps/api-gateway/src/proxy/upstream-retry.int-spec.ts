import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEV_AUDIENCE, DEV_ISSUER, TokenVerifier } from '@erp/auth';
import { TestAuth } from '@erp/testing';
import {
  drainingUpstream,
  type FakeUpstream,
  healthyUpstream,
  type HealthyAnswer,
  idleClosingUpstream,
  refusingUpstream,
  resettingUpstream,
  silentUpstream,
  unavailableUpstream,
} from '../testing/upstream-fakes';
import { proxyPlugin, REPLAYABLE_BODY_BYTES } from './proxy.plugin';
import { ReplicaSet } from './replica-set';
import type { RouteResolver } from './routes';
import { upstreamRetries } from './upstream-retry';

/**
 * The gateway's retry rule on real sockets: the real proxy plugin (reply-from over undici) in
 * front of two replicas of one upstream, a misbehaving one listed first (the first request goes
 * to it) and a healthy one. What reached each replica is told by the test's `x-test-id`.
 */
const auth = new TestAuth();
const RESPONSE_TIMEOUT_MS = 1_000;

interface Gateway {
  url: string;
  close(): Promise<void>;
}

async function gatewayTo(urls: string[]): Promise<Gateway> {
  const verifier = await TokenVerifier.create({ issuer: DEV_ISSUER, audience: DEV_AUDIENCE, publicKeyPem: auth.publicKeyPem });
  const app: FastifyInstance = Fastify();
  const customers = new ReplicaSet(urls);
  // Every path is the customers service's (the route table is not under test here), and every
  // first attempt goes to the first replica listed. Not `customers.pick()`: the proxy's readiness
  // watch asks each replica twice a second, and a misbehaving fake fails that probe too, so on a
  // busy machine a request sent after the first probe skipped the replica under test (a 200 from
  // the healthy one, no retry counted) and the rule was never exercised.
  const first = urls[0] as string;
  const routes: RouteResolver = {
    resolve: async () => ({ rule: { upstream: 'customers', v1: true, template: '/v1/customer/{customerNumber}' }, baseUrl: first, replicas: customers }),
  };
  await app.register(proxyPlugin, { routes, upstreams: { customers }, verifier, upstreamTimeoutMs: RESPONSE_TIMEOUT_MS });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

async function retries(reason: string): Promise<number> {
  const metric = await upstreamRetries.get();
  return metric.values.filter((value) => value.labels['reason'] === reason).reduce((sum, value) => sum + value.value, 0);
}

interface Sent {
  id: string;
  status: number;
  body: string;
}

/** One request through the gateway, tagged with a fresh x-test-id. */
async function send(gateway: Gateway, method: string, body?: Uint8Array | string, contentType = 'application/octet-stream', extra: Record<string, string> = {}): Promise<Sent> {
  const id = randomBytes(6).toString('hex');
  const headers = { ...(await auth.headers()), 'x-test-id': id, ...(body === undefined ? {} : { 'content-type': contentType }), ...extra };
  const response = await fetch(`${gateway.url}/v1/customer/10001`, { method, headers, body });
  return { id, status: response.status, body: await response.text() };
}

describe('gateway retries: only a request that never reached a service, once, on another replica', () => {
  const servers: FakeUpstream[] = [];
  const gateways: Gateway[] = [];
  const started = async (upstream: Promise<FakeUpstream>) => {
    const server = await upstream;
    servers.push(server);
    return server;
  };
  const gateway = async (urls: string[]) => {
    const g = await gatewayTo(urls);
    gateways.push(g);
    return g;
  };

  afterEach(async () => {
    for (const g of gateways.splice(0)) await g.close();
    for (const s of servers.splice(0)) await s.close();
  });

  it('retries a refused connection on the other replica, for every method, the whole streamed body included', async () => {
    const refusing = await started(refusingUpstream());
    const healthy = await started(healthyUpstream());
    const upload = randomBytes(3 * 1024 * 1024);
    for (const [method, body] of [['GET'], ['DELETE'], ['PUT', '{"name":"x"}'], ['POST', upload]] as const) {
      // A gateway of its own each time, so that the refusing replica is first in turn.
      const g = await gateway([refusing.url, healthy.url]);
      const before = await retries('refused');
      const sent = await send(g, method, body);
      expect(sent.status).toBe(200);
      const answer = JSON.parse(sent.body) as HealthyAnswer;
      expect(answer.method).toBe(method);
      expect(answer.bodyBytes).toBe(body === undefined ? 0 : Buffer.byteLength(body));
      if (body === upload) expect(answer.bodySha256).toBe(createHash('sha256').update(upload).digest('hex'));
      expect(healthy.seen).toContain(sent.id);
      expect(await retries('refused')).toBe(before + 1);
    }
  });

  it('never writes to a pooled connection the upstream closed while idle: no request fails, none needs a retry', async () => {
    // Idle close at 1 s, pauses of 1.5 s: margins a busy 2-core machine keeps (at 100 ms and 250 ms,
    // a starved test runner's "back to back" request met the close in flight, a race no client avoids).
    const closing = await started(idleClosingUpstream(1_000));
    const g = await gateway([closing.url]);
    const before = (await retries('refused')) + (await retries('not_connected')) + (await retries('draining'));
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Back to back (the pooled connection is reused), then past the upstream's idle close.
      statuses.push((await send(g, i % 2 ? 'POST' : 'GET', i % 2 ? '{"n":1}' : undefined)).status);
      if (i % 4 === 3) await sleep(1_500);
    }
    expect(statuses).toEqual(Array(20).fill(200));
    expect(closing.seen).toHaveLength(20);
    // The upstream closed idle connections five times: the gateway opened new ones, and no more.
    expect(closing.connections).toBe(5);
    expect((await retries('refused')) + (await retries('not_connected')) + (await retries('draining'))).toBe(before);
  });

  it('retries a 503 with Connection: close (a draining replica) on the other replica; with a body already sent, answers it', async () => {
    const draining = await started(drainingUpstream());
    const healthy = await started(healthyUpstream());
    for (const method of ['GET', 'DELETE', 'POST']) {
      const g = await gateway([draining.url, healthy.url]);
      const before = await retries('draining');
      const sent = await send(g, method);
      expect(sent.status).toBe(200);
      expect(draining.seen).toContain(sent.id);
      expect(healthy.seen).toContain(sent.id);
      expect(await retries('draining')).toBe(before + 1);
    }
    // A small body (a JSON write) was read whole by the gateway: the retry sends it again, intact.
    // Its bytes and its Content-Type, parameters included (a charset, a multipart boundary), as sent.
    const small = '{"name":"x"}';
    const g = await gateway([draining.url, healthy.url]);
    const before = await retries('draining');
    const sent = await send(g, 'POST', small, 'application/json; charset=utf-8');
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body)).toMatchObject({
      method: 'POST',
      bodyBytes: small.length,
      bodySha256: createHash('sha256').update(small).digest('hex'),
      contentType: 'application/json; charset=utf-8',
    });
    expect(await retries('draining')).toBe(before + 1);
    // A body over REPLAYABLE_BODY_BYTES streams: once sent it is gone, and it is not kept for a retry (uploads).
    const large = new Uint8Array(REPLAYABLE_BODY_BYTES + 1);
    const g2 = await gateway([draining.url, healthy.url]);
    const streamed = await send(g2, 'POST', large);
    expect(streamed.status).toBe(503);
    expect(healthy.seen).not.toContain(streamed.id);
  });

  it('retries a GET the upstream read before it reset the connection (it changes nothing), once, on the other replica', async () => {
    const resetting = await started(resettingUpstream());
    const healthy = await started(healthyUpstream());
    const g = await gateway([resetting.url, healthy.url]);
    const before = await retries('read_lost');
    const sent = await send(g, 'GET');
    expect(sent.status).toBe(200);
    expect(resetting.seen.filter((id) => id === sent.id)).toHaveLength(1);
    expect(healthy.seen.filter((id) => id === sent.id)).toHaveLength(1);
    expect(await retries('read_lost')).toBe(before + 1);
  });

  it('retries a POST or PATCH with an Idempotency-Key the upstream read before it reset the connection, once, on the other replica', async () => {
    const resetting = await started(resettingUpstream());
    const healthy = await started(healthyUpstream());
    for (const method of ['POST', 'PATCH']) {
      const g = await gateway([resetting.url, healthy.url]);
      const before = await retries('read_lost');
      const sent = await send(g, method, '{"name":"x"}', 'application/json', { 'idempotency-key': `key-${randomBytes(4).toString('hex')}` });
      expect(sent.status).toBe(200);
      expect(JSON.parse(sent.body)).toMatchObject({ method, bodyBytes: 12 });
      expect(resetting.seen.filter((id) => id === sent.id)).toHaveLength(1);
      expect(healthy.seen.filter((id) => id === sent.id)).toHaveLength(1);
      expect(await retries('read_lost')).toBe(before + 1);
    }
    // A streamed body (an upload over REPLAYABLE_BODY_BYTES) is gone once sent: the client retries it.
    const g = await gateway([resetting.url, healthy.url]);
    const streamed = await send(g, 'POST', new Uint8Array(REPLAYABLE_BODY_BYTES + 1), 'application/octet-stream', { 'idempotency-key': 'an-upload' });
    expect(streamed.status).toBe(503);
    expect(healthy.seen).not.toContain(streamed.id);
  });

  it('never retries a write without a key the upstream read before it reset the connection', async () => {
    const resetting = await started(resettingUpstream());
    const healthy = await started(healthyUpstream());
    for (const [method, body] of [['DELETE'], ['POST', '{"name":"x"}'], ['PUT', '{"name":"x"}']] as const) {
      const g = await gateway([resetting.url, healthy.url]);
      const all = async () => (await retries('refused')) + (await retries('not_connected')) + (await retries('draining')) + (await retries('read_lost'));
      const before = await all();
      const sent = await send(g, method, body);
      expect(sent.status).toBe(503);
      expect(resetting.seen.filter((id) => id === sent.id)).toHaveLength(1);
      expect(healthy.seen).not.toContain(sent.id);
      expect(await all()).toBe(before);
    }
  });

  it('never retries a response timeout, a 503 that keeps its connection, or a second failure', async () => {
    const silent = await started(silentUpstream());
    const unavailable = await started(unavailableUpstream());
    const refusing = await started(refusingUpstream());
    const healthy = await started(healthyUpstream());

    const timedOut = await send(await gateway([silent.url, healthy.url]), 'GET');
    expect(timedOut.status).toBe(503);
    expect(silent.seen).toContain(timedOut.id);
    expect(healthy.seen).not.toContain(timedOut.id);

    const busy = await send(await gateway([unavailable.url, healthy.url]), 'GET');
    expect(busy.status).toBe(503);
    expect(busy.body).toBe('{"database":"down"}'); // the service's own answer, passed through
    expect(healthy.seen).not.toContain(busy.id);

    // Refused, retried once on the other replica, which refuses too: the gateway's 503, one retry.
    const other = await started(refusingUpstream());
    const before = await retries('refused');
    const twice = await send(await gateway([refusing.url, other.url]), 'GET');
    expect(twice.status).toBe(503);
    expect(await retries('refused')).toBe(before + 1);
  });
});
