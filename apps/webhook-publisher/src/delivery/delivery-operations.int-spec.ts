import { Webhook } from 'standardwebhooks';
import { DeliveryWorkerService } from './delivery-worker.service';
import { customerEvent, salesOrderEvent } from '../testing/webhooks-test-app';
import { A, B, hmacOfBody, useDeliveryTestApp } from '../testing/delivery-test-kit';

describe('webhook delivery: replay, rotation, tenants, publishers, retention (events through Kafka, real HTTP receivers)', () => {
  const { app, receiver, subscribe } = useDeliveryTestApp('webhook-delivery-ops');
  let t: ReturnType<typeof app>;
  beforeAll(() => {
    t = app();
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
