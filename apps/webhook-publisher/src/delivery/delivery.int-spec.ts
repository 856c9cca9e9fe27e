import { Webhook } from 'standardwebhooks';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { salesOrderEvent } from '../testing/webhooks-test-app';
import { A, eventually, hmacOfBody, useDeliveryTestApp } from '../testing/delivery-test-kit';

describe('webhook delivery: signing, retries, failures (events through Kafka, real HTTP receivers)', () => {
  const { app, receiver, subscribe, attemptsOf } = useDeliveryTestApp('webhook-delivery');
  let t: ReturnType<typeof app>;
  beforeAll(() => {
    t = app();
  });

  it('delivers a published SALESORDER_UPDATED signed per Standard Webhooks and with x-vwd-signature-v1 over the raw body', async () => {
    // The receiver takes 150 ms to answer: the recorded latency must include that wait.
    const r = await receiver(() => ({ status: 204, delayMs: 150 }));
    const { id, secret } = await subscribe(r.url);
    const event = salesOrderEvent(A, '000123', 7);
    const published = Date.now();
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
    // The request's own time: at least the receiver's delay, and within what this test saw pass
    // (not a budget: a busy machine stretches both alike).
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(150);
    expect(attempt.latencyMs).toBeLessThanOrEqual(Date.now() - published);
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
    await r.waitForCount(2);
    await eventually(async () => (await attemptsOf(id)).length === 2);
    const [second, first] = await attemptsOf(id);
    expect(first).toMatchObject({ attempt: 1, status: 'failed', responseCode: null, error: expect.stringMatching(/timed out|timeout/i) });
    // Given up at the timeout (timers never fire early), not at the answer 3.5 s later: the answer
    // was a 200, and the attempt is a failure by timeout.
    expect(first.latencyMs).toBeGreaterThanOrEqual(2_900);
    expect(second).toMatchObject({ attempt: 2, status: 'delivered' });
  });

  it('honours Retry-After on 429', async () => {
    const r = await receiver((_w, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : 200));
    await subscribe(r.url);
    await t.publish(salesOrderEvent(A, '000500', 1));
    await r.waitForCount(2);
    expect(r.received[1].receivedAt - r.received[0].receivedAt).toBeGreaterThanOrEqual(950);
  });

  // After the tests above, which produced every outcome.
  it('counts attempts by outcome on /metrics', async () => {
    const text = await (await t.http.request('/metrics')).text();
    for (const outcome of ['delivered', 'retry', 'failed', 'gone']) {
      expect(text).toMatch(new RegExp(`^webhook_delivery_attempts_total\\{outcome="${outcome}"\\} [1-9]`, 'm'));
    }
  });

  it('counts subscriptions by state on /metrics, the ones the publisher disabled apart', async () => {
    const gone = await receiver(() => 410);
    const { id } = await subscribe(gone.url);
    await subscribe((await receiver(() => 204)).url);
    const paused = await subscribe((await receiver(() => 204)).url);
    expect((await t.api(`/api/webhooks/subscriptions/${paused.id}`, { method: 'PATCH', body: { enabled: false } })).status).toBe(200);
    await t.publish(salesOrderEvent(A, '000600', 1));
    await eventually(async () => ((await (await t.api(`/api/webhooks/subscriptions/${id}`)).json()) as { enabled: boolean }).enabled === false);
    const text = await (await t.http.request('/metrics')).text();
    expect(text).toMatch(/^webhook_subscriptions\{state="enabled"\} 1$/m);
    expect(text).toMatch(/^webhook_subscriptions\{state="disabled"\} 1$/m);
    expect(text).toMatch(/^webhook_subscriptions\{state="disabled_failing"\} 1$/m);
  });
});
