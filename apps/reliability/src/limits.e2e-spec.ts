import { connect, type Socket } from 'node:net';
import { writeFigures } from './support/figures';
import { A, B, type Harness, jsonHeaders, startHarness } from './support/system';

const RATE_LIMIT = 40;
const HEADERS_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 4_000;

/** Opens a connection and trickles `text` one byte every `everyMs`; resolves when the server ends it. */
function trickle(baseUrl: string, text: string, everyMs: number, prefix = ''): { closed: Promise<{ afterMs: number; answer: string }>; socket: Socket } {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  if (prefix) socket.write(prefix);
  const started = Date.now();
  let answer = '';
  let sent = 0;
  const timer = setInterval(() => {
    if (sent < text.length && !socket.destroyed) socket.write(text[sent++]);
  }, everyMs);
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<{ afterMs: number; answer: string }>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ afterMs: Date.now() - started, answer });
    }),
  );
  return { closed, socket };
}

/**
 * Limits, on a small system (gateway, customers-v1, sales-orders-v3) started with low limits so
 * they are reached quickly: per-company rate limit, body size, slow-loris headers and bodies.
 */
describe('limits through the api-gateway', () => {
  let h: Harness;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    h = await startHarness('limits', {
      RATE_LIMIT_PER_COMPANY_PER_MINUTE: String(RATE_LIMIT),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
  }, 180_000);

  afterAll(async () => {
    writeFigures('limits', figures);
    const failed = h?.statuses.filter((s) => s.status >= 500) ?? [];
    await h?.stop();
    expect(failed).toEqual([]);
  }, 60_000);

  it('limits requests per company: 429 with Retry-After in the family shape, other companies unaffected', async () => {
    const headers = await h.auth.headers({ company: A });
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) {
      const response = await h.call('/v1/customer?pageSize=1', { headers });
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);

    const limitedV1 = await h.call('/v1/customer?pageSize=1', { headers });
    expect(limitedV1.status).toBe(429);
    const retryAfter = Number(limitedV1.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limitedV1.headers.get('x-request-id')).toBeTruthy();
    const v1Body = (await limitedV1.json()) as Record<string, string>;
    expect(v1Body).toMatchObject({ ExceptionFaultCode: '10501', ExceptionDetails: '' });
    expect(v1Body['ExceptionMessageID']).toMatch(/^10501_/);

    const limitedV3 = await h.call('/api/v3/SalesOrders', { headers: await h.auth.headers({ company: A, applicationType: null }) });
    expect(limitedV3.status).toBe(429);
    expect(limitedV3.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(limitedV3.headers.get('retry-after')).toBeTruthy();
    expect(((await limitedV3.json()) as { status: number }).status).toBe(429);

    // Another company has its own budget; a token granting both but addressing B counts for B.
    const other = await h.call('/v1/customer?pageSize=1', { headers: await h.auth.headers({ company: B }) });
    expect(other.status).toBe(200);
    await other.arrayBuffer();
    figures['rateLimit'] = { limitPerMinute: RATE_LIMIT, firstRefusedAt: RATE_LIMIT + 1, retryAfterSeconds: retryAfter };
  });

  it('refuses bodies over BODY_LIMIT_BYTES with 413 in the family shape and stores nothing', async () => {
    const headers = await jsonHeaders(h, B);
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
    const v1 = await h.call('/v1/customer', { method: 'POST', headers, body: big });
    expect(v1.status).toBe(413);
    expect(((await v1.json()) as Record<string, string>)['ExceptionFaultCode']).toBe('10401');
    const v3Headers = { ...headers };
    delete v3Headers['ipp-application-type'];
    const v3 = await h.call('/api/v3/SalesOrders', { method: 'POST', headers: v3Headers, body: JSON.stringify({ description: 'x'.repeat(9 * 1024 * 1024) }) });
    expect(v3.status).toBe(413);
    expect(v3.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    await v3.arrayBuffer();
    const list = await h.call(`/v1/customer?name=${'x'.repeat(10)}`, { headers });
    expect(await list.json()).toEqual([]);
  });

  it.each([
    ['the gateway', () => h.system.baseUrl],
    ['a service reached directly', () => h.system.serviceUrls['customers-v1']],
  ])('cuts off slow-loris clients at %s while a normal client is still served', async (_label, url) => {
    const base = url();
    const slowHeaders = Array.from({ length: 20 }, () => trickle(base, `GET /v1/customer HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(500)}\r\n\r\n`, 200));
    const slowBodies = Array.from({ length: 20 }, () =>
      // Complete headers at once, then the body one byte every 50 ms: cut by REQUEST_TIMEOUT_MS.
      trickle(base, '{'.repeat(1000), 50, 'POST /v1/customer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'),
    );
    // While they trickle, a normal client is served promptly.
    const headers = await h.auth.headers({ company: B });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const normalStarted = Date.now();
    const normal = await fetch(`${base}/v1/customer?pageSize=1`, { headers, signal: AbortSignal.timeout(5_000) });
    const normalMs = Date.now() - normalStarted;
    expect(normal.status).toBe(200);
    await normal.arrayBuffer();
    const headerCuts = await Promise.all(slowHeaders.map((s) => s.closed));
    const bodyCuts = await Promise.all(slowBodies.map((s) => s.closed));
    // Cut off after the limit plus the server's checking interval, long before they would finish
    // (the header trickle needs ~110 s, the body trickle ~55 s).
    for (const cut of headerCuts) expect(cut.afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
    for (const cut of bodyCuts) {
      expect(cut.afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 500);
      expect(cut.afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 3_000);
    }
    expect(headerCuts.every((cut) => cut.answer === '' || cut.answer.startsWith('HTTP/1.1 408'))).toBe(true);
    figures[`slowLoris.${_label}`] = {
      slowClients: headerCuts.length + bodyCuts.length,
      headerCutAfterMsMax: Math.max(...headerCuts.map((c) => c.afterMs)),
      bodyCutAfterMsMax: Math.max(...bodyCuts.map((c) => c.afterMs)),
      normalClientMs: normalMs,
    };
  }, 30_000);
});
