import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { DeliveryWorkerService } from './delivery-worker.service';
import { TestReceiver } from '../testing/test-receiver';
import { customerEvent, salesOrderEvent, startWebhooksTestApp, type WebhooksTestApp } from '../testing/webhooks-test-app';

const A = '1000001';
const B = '2000002';
let t: WebhooksTestApp;
const receivers: TestReceiver[] = [];

async function receiver(...args: Parameters<typeof TestReceiver.start>): Promise<TestReceiver> {
  const r = await TestReceiver.start(...args);
  receivers.push(r);
  return r;
}

async function subscribe(
  url: string,
  options: { company?: string; eventTypes?: string[]; publisher?: string } = {},
): Promise<{ id: string; secret: string }> {
  const response = await t.api('/api/webhooks/subscriptions', {
    method: 'POST',
    company: options.company ?? A,
    body: {
      publisher: options.publisher ?? SALES_ORDER_PUBLISHER,
      eventTypes: options.eventTypes ?? ['SALESORDER_CREATED', 'SALESORDER_UPDATED', 'SALESORDER_DELETED'],
      url,
    },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; secret: string };
}

interface Attempt {
  webhookId: string;
  attempt: number;
  status: string;
  responseCode: number | null;
  latencyMs: number;
  attemptedAt: string;
}

async function attemptsOf(id: string, company = A): Promise<Attempt[]> {
  const response = await t.api(`/api/webhooks/subscriptions/${id}/deliveries`, { company });
  expect(response.status).toBe(200);
  return ((await response.json()) as { value: Attempt[] }).value;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function hmacOfBody(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(body).digest('base64');
}

describe('webhook delivery (events through Kafka, real HTTP receivers)', () => {
  beforeAll(async () => {
    t = await startWebhooksTestApp('webhook-delivery');
  });
  // Each test watches its own subscriptions only.
  afterEach(async () => {
    await t.sql.query(`DELETE FROM webhook_subscriptions`);
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  it('delivers a published SALESORDER_UPDATED signed per Standard Webhooks and with x-vwd-signature-v1 over the raw body', async () => {
    // The receiver takes 150 ms to answer: the recorded latency must include that wait.
    const r = await receiver(() => ({ status: 204, delayMs: 150 }));
    const { id, secret } = await subscribe(r.url);
    const event = salesOrderEvent(A, '000123', 7);
    await t.publish(event);
    await r.waitForCount(1);
    const [got] = r.received;

    const verified = new Webhook(secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    });
    expect(verified).toEqual({
      id: event.id,
      type: 'SALESORDER_UPDATED',
      publisher: SALES_ORDER_PUBLISHER,
      companyId: A,
      timestamp: event.time,
      data: { type: 'SO', orderId: '000123', customerId: '10001', status: 'Open', version: '7', link: '/api/v3/SalesOrders/SO/000123' },
    });
    expect(got.headers['x-vwd-signature-v1']).toBe(hmacOfBody(secret, got.body));
    expect(got.headers['webhook-id']).toBe(event.id);
    expect(got.headers['x-vwd-event-id']).toBe(event.id);
    expect(got.headers['x-vwd-subscription-id']).toBe(id);
    expect(got.headers['x-vwd-tenant-id']).toBe(A);
    expect(Date.parse(String(got.headers['x-vwd-notification-timestamp']))).not.toBeNaN();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got.body, got.headers as Record<string, string>)).toThrow();

    await eventually(async () => (await attemptsOf(id)).length === 1);
    const [attempt] = await attemptsOf(id);
    expect(attempt).toMatchObject({ webhookId: event.id, attempt: 1, status: 'delivered', responseCode: 204 });
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(150);
    expect(attempt.latencyMs).toBeLessThan(10_000);
  });

  it('retries a receiver that fails twice with the same webhook-id and logs all three attempts', async () => {
    const r = await receiver((_w, n) => (n <= 2 ? 500 : 200));
    const { id } = await subscribe(r.url);
    const event = salesOrderEvent(A, '000200', 1);
    await t.publish(event);
    await r.waitForCount(3);
    expect(r.received.map((w) => w.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
    await eventually(async () => (await attemptsOf(id)).length === 3);
    const attempts = await attemptsOf(id);
    expect(attempts.map((a) => [a.attempt, a.status, a.responseCode])).toEqual([
      [3, 'delivered', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(attempts.every((a) => a.webhookId === event.id)).toBe(true);
  });

  it('disables the subscription when the receiver answers 410 Gone', async () => {
    const r = await receiver(() => 410);
    const { id } = await subscribe(r.url);
    await t.publish(salesOrderEvent(A, '000300', 1));
    await r.waitForCount(1);
    await eventually(async () => {
      const response = await t.api(`/api/webhooks/subscriptions/${id}`);
      return ((await response.json()) as { enabled: boolean }).enabled === false;
    });
    const subscription = (await (await t.api(`/api/webhooks/subscriptions/${id}`)).json()) as { disabledReason: string };
    expect(subscription.disabledReason).toMatch(/410/);
    await t.publish(salesOrderEvent(A, '000300', 2));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received).toHaveLength(1);
  });

  it('disables a subscription that has been failing for 5 days straight; a success resets the clock', async () => {
    const r = await receiver((_w, n) => (n === 1 ? 200 : 500));
    const { id } = await subscribe(r.url);
    await t.sql.query(`UPDATE webhook_subscriptions SET failing_since = now() - interval '4 days' WHERE id = $1`, [id]);
    await t.publish(salesOrderEvent(A, '000350', 1));
    await r.waitForCount(1);
    await eventually(async () => {
      const { rows } = await t.sql.query(`SELECT failing_since FROM webhook_subscriptions WHERE id = $1`, [id]);
      return rows[0].failing_since === null;
    });
    await t.sql.query(`UPDATE webhook_subscriptions SET failing_since = now() - interval '5 days' + interval '1 second' WHERE id = $1`, [id]);
    await t.sql.query(`SELECT pg_sleep(1.1)`);
    await t.publish(salesOrderEvent(A, '000350', 2));
    await r.waitForCount(2);
    await eventually(async () => {
      const body = (await (await t.api(`/api/webhooks/subscriptions/${id}`)).json()) as { enabled: boolean; disabledReason: string | null };
      return body.enabled === false && /5 day/.test(body.disabledReason ?? '');
    });
  });

  it('marks a message failed after the last retry and keeps it replayable', async () => {
    const r = await receiver(() => 500);
    const { id } = await subscribe(r.url);
    const time = new Date(Date.now() - 3_600_000);
    const event = salesOrderEvent(A, '000400', 1, 'SALESORDER_UPDATED', time);
    await t.publish(event);
    // 1 attempt + 3 retries (test schedule)
    await r.waitForCount(4);
    await eventually(async () => {
      const { rows } = await t.sql.query(`SELECT status FROM webhook_deliveries WHERE subscription_id = $1`, [id]);
      return rows[0]?.status === 'failed';
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(r.received).toHaveLength(4);

    r.responder = () => 200;
    const replay = await t.api(`/api/webhooks/subscriptions/${id}/replay`, {
      method: 'POST',
      body: { since: new Date(time.getTime() - 1).toISOString(), until: new Date(time.getTime() + 1).toISOString() },
    });
    expect(replay.status).toBe(202);
    expect(await replay.json()).toMatchObject({ queued: 1 });
    await r.waitForCount(5);
    expect(r.received[4].headers['webhook-id']).toBe(event.id);
  });

  it('gives up on an attempt after the timeout and retries it', async () => {
    const r = await receiver((_w, n) => (n === 1 ? { status: 200, delayMs: 3_500 } : 200));
    const { id } = await subscribe(r.url);
    await t.publish(salesOrderEvent(A, '000450', 1));
    await r.waitForCount(2, 15_000);
    await eventually(async () => (await attemptsOf(id)).length === 2);
    const [second, first] = await attemptsOf(id);
    expect(first).toMatchObject({ attempt: 1, status: 'failed', responseCode: null, error: expect.stringMatching(/timed out|timeout/i) });
    expect(first.latencyMs).toBeGreaterThanOrEqual(2_900);
    expect(first.latencyMs).toBeLessThan(3_500);
    expect(second).toMatchObject({ attempt: 2, status: 'delivered' });
  });

  it('honours Retry-After on 429', async () => {
    const r = await receiver((_w, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : 200));
    await subscribe(r.url);
    await t.publish(salesOrderEvent(A, '000500', 1));
    await r.waitForCount(2);
    expect(r.received[1].receivedAt - r.received[0].receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('replay re-sends the events of the window in order, and only those', async () => {
    const r = await receiver();
    const { id } = await subscribe(r.url);
    const base = Date.now() - 60_000;
    const events = [0, 1, 2, 3].map((i) => salesOrderEvent(A, '000600', i + 1, 'SALESORDER_UPDATED', new Date(base + i * 10_000)));
    await t.publish(...events);
    await r.waitForCount(4);
    const replay = await t.api(`/api/webhooks/subscriptions/${id}/replay`, {
      method: 'POST',
      body: { since: new Date(base + 5_000).toISOString(), until: new Date(base + 25_000).toISOString() },
    });
    expect(replay.status).toBe(202);
    expect(await replay.json()).toMatchObject({ queued: 2 });
    await r.waitForCount(6);
    expect(r.received.slice(4).map((w) => w.json.id)).toEqual([events[1].id, events[2].id]);
  });

  it('signs with both secrets during a rotation overlap', async () => {
    const r = await receiver();
    const { id, secret: oldSecret } = await subscribe(r.url);
    const rotated = await t.api(`/api/webhooks/subscriptions/${id}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    const { secret: newSecret, previousSecretExpiresAt } = (await rotated.json()) as { secret: string; previousSecretExpiresAt: string };
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(Date.parse(previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    await t.publish(salesOrderEvent(A, '000700', 1));
    await r.waitForCount(1);
    const [got] = r.received;
    const headers = got.headers as Record<string, string>;
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(got.body, headers)).toMatchObject({ type: 'SALESORDER_UPDATED' });
    expect(new Webhook(oldSecret).verify(got.body, headers)).toMatchObject({ type: 'SALESORDER_UPDATED' });
    expect(headers['x-vwd-signature-v1']).toBe(hmacOfBody(newSecret, got.body));

    // After the overlap only the new secret signs.
    await t.sql.query(`UPDATE webhook_subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await t.publish(salesOrderEvent(A, '000700', 2));
    await r.waitForCount(2);
    const later = r.received[1].headers as Record<string, string>;
    expect(later['webhook-signature'].split(' ')).toHaveLength(1);
    expect(() => new Webhook(oldSecret).verify(r.received[1].body, later)).toThrow();
    expect(new Webhook(newSecret).verify(r.received[1].body, later)).toBeTruthy();
  });

  it('never delivers one tenant’s events to another tenant’s subscription', async () => {
    const ra = await receiver();
    const rb = await receiver();
    await subscribe(ra.url, { company: A });
    await subscribe(rb.url, { company: B });
    const forA = salesOrderEvent(A, '000800', 1);
    const forB = salesOrderEvent(B, '000800', 1);
    await t.publish(forA, forB);
    await ra.waitForCount(1);
    await rb.waitForCount(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ra.received.map((w) => [w.json.id, w.json.companyId, w.headers['x-vwd-tenant-id']])).toEqual([[forA.id, A, A]]);
    expect(rb.received.map((w) => [w.json.id, w.json.companyId, w.headers['x-vwd-tenant-id']])).toEqual([[forB.id, B, B]]);
  });

  it('delivers v1 financial events through vendornetfinancials-publisher, only the subscribed types', async () => {
    const r = await receiver();
    await subscribe(r.url, { publisher: 'vendornetfinancials-publisher', eventTypes: ['CUSTOMER_UPDATED'] });
    const event = customerEvent(A, '10042', 3);
    await t.publish(salesOrderEvent(A, '000900', 1), event);
    await r.waitForCount(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.received).toHaveLength(1);
    expect(r.received[0].json).toMatchObject({ id: event.id, type: 'CUSTOMER_UPDATED', publisher: 'vendornetfinancials-publisher' });
  });

  it('creates one delivery per subscription and event even when the event arrives twice', async () => {
    const r = await receiver();
    const { id } = await subscribe(r.url);
    const event = salesOrderEvent(A, '001000', 1);
    await t.publish(event);
    await t.publish(event);
    await r.waitForCount(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(r.received).toHaveLength(1);
    const { rows } = await t.sql.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1`, [id]);
    expect(rows[0].n).toBe(1);
  });

  it('counts attempts by outcome on /metrics', async () => {
    const text = await (await t.http.request('/metrics')).text();
    for (const outcome of ['delivered', 'retry', 'failed', 'gone']) {
      expect(text).toMatch(new RegExp(`^webhook_delivery_attempts_total\\{outcome="${outcome}"\\} [1-9]`, 'm'));
    }
  });

  it('deletes events past the retention period unless a delivery of theirs is still pending', async () => {
    const r = await receiver(() => 500);
    const { id } = await subscribe(r.url);
    const old = salesOrderEvent(A, '001100', 1);
    const stuck = salesOrderEvent(A, '001101', 1);
    await t.publish(old, stuck);
    await r.waitForCount(2);
    await t.sql.query(`UPDATE webhook_deliveries SET status = 'delivered' WHERE event_id = $1`, [old.id]);
    await t.sql.query(`UPDATE webhook_events SET received_at = now() - interval '31 days' WHERE id = ANY($1)`, [[old.id, stuck.id]]);
    await t.service.app.get(DeliveryWorkerService).cleanup();
    const { rows } = await t.sql.query(`SELECT id FROM webhook_events WHERE id = ANY($1)`, [[old.id, stuck.id]]);
    expect(rows.map((row: { id: string }) => row.id)).toEqual([stuck.id]);
    const { rows: deliveries } = await t.sql.query(`SELECT event_id FROM webhook_deliveries WHERE subscription_id = $1`, [id]);
    expect(deliveries.map((row: { event_id: string }) => row.event_id)).toEqual([stuck.id]);
  });
});
