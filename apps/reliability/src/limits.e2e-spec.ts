import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Client } from 'pg';
import { writeFigures } from './support/figures';
import { A, B, type Harness, jsonHeaders, putInventoryItems, startHarness } from './support/system';
import { PATIENCE_MS } from '@erp/testing';

const RATE_LIMIT = 40;
const HEADERS_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 4_000;
const ATTACHMENT_MAX_BYTES = 1024 * 1024;
const WEBHOOK_TIMEOUT_MS = 1_000;
/**
 * How long the slow-loris trickles below would take to send all they have: ~550 bytes at 1 s, 1000
 * at 250 ms. Far beyond the limits (2 s, 4 s), so that half of them bounds the cut-offs with a wide
 * margin for a busy machine's late timers, and a server without the limits (the trickle runs to
 * its end) still fails.
 */
const TRICKLE_HEADERS_EVERY_MS = 1_000;
const TRICKLE_BODY_EVERY_MS = 250;
const TRICKLE_HEADERS_MS = 550 * TRICKLE_HEADERS_EVERY_MS;
const TRICKLE_BODY_MS = 1_000 * TRICKLE_BODY_EVERY_MS;
/** A company of its own for the upload and webhook cases, so the rate-limit case's budget is not shared. */
const C = '3000003';

/** Polls a SQL query on a service's database until it returns a row (no HTTP: the rate limit is low here). */
async function waitForRow<T>(url: string, sql: string, params: unknown[], what: string, timeoutMs = PATIENCE_MS): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await client.query(sql, params);
      if (rows.length > 0) return rows[0] as T;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

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
 * Limits, on the whole system started with low limits so they are reached quickly: per-company
 * rate limit, body size, upload size, webhook delivery timeout, slow-loris headers and bodies.
 */
describe('limits through the api-gateway', () => {
  let h: Harness;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    h = await startHarness('limits', {
      RATE_LIMIT_PER_COMPANY_PER_MINUTE: String(RATE_LIMIT),
      HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      ATTACHMENT_MAX_BYTES: String(ATTACHMENT_MAX_BYTES),
      WEBHOOKS_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
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

  it('refuses an upload over ATTACHMENT_MAX_BYTES with 413 while it streams, stores nothing, and accepts one at the limit', async () => {
    const headers = await jsonHeaders(h, C);
    const created = await h.call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: 'Upload limit', currencyId: 'NOK' }) });
    expect(created.status).toBe(201);
    const customerNumber = String(((await created.json()) as { number: string }).number);
    const attachmentsDb = h.system.databaseUrls['attachments-v1'];
    await waitForRow(attachmentsDb, 'SELECT 1 FROM attachment_owners WHERE company_id = $1 AND object_id = $2', [C, customerNumber], 'the owner to reach attachments');
    const { 'content-type': _json, ...plain } = headers;
    const upload = (bytes: number) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.alloc(bytes, 7)]), 'limit.bin');
      return h.call(`/v1/customer/${customerNumber}/Attachment`, { method: 'POST', headers: plain, body: form });
    };
    const started = Date.now();
    const tooBig = await upload(3 * ATTACHMENT_MAX_BYTES);
    const refusedMs = Date.now() - started;
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as Record<string, string>)['ExceptionFaultCode']).toBe('10401');
    const sql = new Client({ connectionString: attachmentsDb });
    await sql.connect();
    try {
      const counts = await sql.query<{ attachments: string; pending: string }>(
        `SELECT (SELECT count(*) FROM attachments WHERE company_id = $1)::text AS attachments,
                (SELECT count(*) FROM pending_uploads)::text AS pending`,
        [C],
      );
      expect(counts.rows[0]).toEqual({ attachments: '0', pending: '0' });
      const atLimit = await upload(ATTACHMENT_MAX_BYTES);
      expect(atLimit.status).toBe(201);
      await atLimit.arrayBuffer();
      const after = await sql.query<{ n: string }>('SELECT count(*)::text AS n FROM attachments WHERE company_id = $1', [C]);
      expect(after.rows[0].n).toBe('1');
    } finally {
      await sql.end();
    }
    figures['uploadLimit'] = { limitBytes: ATTACHMENT_MAX_BYTES, refusedBytes: 3 * ATTACHMENT_MAX_BYTES, refusedAfterMs: refusedMs };
  }, 90_000);

  it('gives up a webhook delivery to a receiver that never answers after WEBHOOKS_TIMEOUT_MS, while another receiver is served', async () => {
    // One receiver accepts connections and never answers; the other answers at once.
    const hanging: Server = createServer(() => undefined);
    const received: string[] = [];
    const healthy: Server = createServer((request, response) => {
      received.push(String(request.headers['webhook-id']));
      request.resume();
      response.end();
    });
    const listen = (server: Server) =>
      new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`)));
    const [hangingUrl, healthyUrl] = [await listen(hanging), await listen(healthy)];
    try {
      const manage = await jsonHeaders(h, C, 'webhooks:manage');
      const subscribe = async (url: string) => {
        const response = await h.call('/api/webhooks/subscriptions', {
          method: 'POST',
          headers: manage,
          body: JSON.stringify({ publisher: 'vendor.net.erp.salesorderservice-publisher', eventTypes: ['SALESORDER_CREATED'], url }),
        });
        expect(response.status).toBe(201);
        return String(((await response.json()) as { id: string }).id);
      };
      const hangingId = await subscribe(hangingUrl);
      await subscribe(healthyUrl);
      const headers = await jsonHeaders(h, C);
      const customer = await h.call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: 'Webhook timeout', currencyId: 'NOK' }) });
      const customerNumber = String(((await customer.json()) as { number: string }).number);
      await waitForRow(
        h.system.databaseUrls['sales-orders-v3'],
        'SELECT 1 FROM customer_snapshots WHERE company_id = $1 AND customer_id = $2',
        [C, customerNumber],
        'the customer to reach sales orders',
      );
      const { 'ipp-application-type': _type, ...v3 } = headers;
      await putInventoryItems(h.call, v3, ['ITEM']);
      const order = await h.call('/api/v3/SalesOrders', {
        method: 'POST',
        headers: v3,
        body: JSON.stringify({ type: 'SO', customer: { id: customerNumber }, orderLines: [{ inventoryId: 'ITEM', quantity: 1, unitPrice: '1.00' }] }),
      });
      expect(order.status).toBe(201);
      await order.arrayBuffer();
      const attempt = await waitForRow<{ latency_ms: number; error: string; outcome: string; delivery_status: string }>(
        h.system.databaseUrls['webhook-publisher'],
        `SELECT a.latency_ms, a.error, a.outcome, d.status AS delivery_status
           FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
          WHERE a.subscription_id = $1 ORDER BY a.attempted_at LIMIT 1`,
        [hangingId],
        'the attempt at the hanging receiver',
      );
      // The attempt failed; the delivery stays pending for its next retry.
      expect(attempt.outcome).toBe('failed');
      expect(attempt.delivery_status).toBe('pending');
      expect(attempt.error).toBeTruthy();
      // Given up at the timeout (timers never fire early); without one the receiver, which never
      // answers, would leave no attempt to find above.
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(WEBHOOK_TIMEOUT_MS - 50);
      expect(received.length).toBeGreaterThanOrEqual(1);
      figures['webhookTimeout'] = { timeoutMs: WEBHOOK_TIMEOUT_MS, attemptLatencyMs: attempt.latency_ms, error: attempt.error, retried: attempt.delivery_status === 'pending' };
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
      await new Promise((resolve) => healthy.close(resolve));
    }
  }, 120_000);

  it.each([
    ['the gateway', () => h.system.baseUrl],
    ['a service reached directly', () => h.system.serviceUrls['customers-v1']],
  ])('cuts off slow-loris clients at %s while a normal client is still served', async (_label, url) => {
    const base = url();
    const slowHeaders = Array.from({ length: 20 }, () => trickle(base, `GET /v1/customer HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(500)}\r\n\r\n`, TRICKLE_HEADERS_EVERY_MS));
    const slowBodies = Array.from({ length: 20 }, () =>
      // Complete headers at once, then the body one byte every 250 ms: cut by REQUEST_TIMEOUT_MS.
      trickle(base, '{'.repeat(1000), TRICKLE_BODY_EVERY_MS, 'POST /v1/customer HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n'),
    );
    // While they trickle, a normal client is served promptly.
    const headers = await h.auth.headers({ company: B });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const normalStarted = Date.now();
    // Well before the trickles end (250 s and more): a server they starved would answer after them.
    const normal = await fetch(`${base}/v1/customer?pageSize=1`, { headers, signal: AbortSignal.timeout(TRICKLE_BODY_MS / 2) });
    const normalMs = Date.now() - normalStarted;
    expect(normal.status).toBe(200);
    await normal.arrayBuffer();
    const headerCuts = await Promise.all(slowHeaders.map((s) => s.closed));
    const bodyCuts = await Promise.all(slowBodies.map((s) => s.closed));
    // Cut off after the limit (timers never fire early) and long before they would finish: half
    // the trickle's own time is the bound, so a busy machine's late timer still passes and a
    // server without the limit (the trickle runs to its end) does not.
    for (const cut of headerCuts) expect(cut.afterMs).toBeLessThan(TRICKLE_HEADERS_MS / 2);
    for (const cut of bodyCuts) {
      expect(cut.afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 500);
      expect(cut.afterMs).toBeLessThan(TRICKLE_BODY_MS / 2);
    }
    expect(headerCuts.every((cut) => cut.answer === '' || cut.answer.startsWith('HTTP/1.1 408'))).toBe(true);
    figures[`slowLoris.${_label}`] = {
      slowClients: headerCuts.length + bodyCuts.length,
      headerCutAfterMsMax: Math.max(...headerCuts.map((c) => c.afterMs)),
      bodyCutAfterMsMax: Math.max(...bodyCuts.map((c) => c.afterMs)),
      normalClientMs: normalMs,
    };
    // About 5 s. Without the limits the cuts never come and this bound (the body trickle's own time) fails it.
  }, TRICKLE_BODY_MS);
});
