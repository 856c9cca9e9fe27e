import { createDataSource } from '@erp/database';
import type { DataSource } from 'typeorm';
import { WEBHOOKS_ENTITIES, WEBHOOKS_MIGRATIONS } from '../database';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { TestReceiver } from '../testing/test-receiver';
import { salesOrderEvent, startWebhooksTestApp, type WebhooksTestApp } from '../testing/webhooks-test-app';
import { DeliveryWorker } from './delivery-worker';

const A = '1000001';
let t: WebhooksTestApp;
let secondDataSource: DataSource;
let secondWorker: DeliveryWorker;

describe('per-order delivery order', () => {
  beforeAll(async () => {
    t = await startWebhooksTestApp('webhook-ordering', { WEBHOOKS_CONCURRENCY: '8' });
    // A second worker on the same database, as a second replica would run it.
    secondDataSource = createDataSource({
      url: t.database.runtimeUrl,
      tenantIsolation: true,
      entities: WEBHOOKS_ENTITIES,
      migrations: WEBHOOKS_MIGRATIONS,
      applicationName: 'webhook-ordering-second-worker',
    });
    await secondDataSource.initialize();
    secondWorker = new DeliveryWorker({
      dataSource: secondDataSource,
      retry: { schedule: [20, 20, 20, 20, 20], jitter: 0, maxRetryAfterMs: 1_000 },
      timeoutMs: 3_000,
      concurrency: 8,
      pollIntervalMs: 20,
      leaseMs: 5_000,
      disableAfterFailingMs: 86_400_000,
      allowPrivateTargets: true,
    });
    secondWorker.start();
  });
  afterAll(async () => {
    await secondWorker.stop();
    await secondDataSource.destroy();
    await t.close();
  });

  it('delivers 20 rapid updates of one order in order, with failing attempts, while other orders proceed in parallel', async () => {
    // Every third version fails twice before it is accepted: many messages need retries.
    const seen = new Map<string, number>();
    const receiver = await TestReceiver.start((w) => {
      const id = String(w.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      return Number(w.json.data.version) % 3 === 0 && seen.get(id)! <= 2 ? 503 : 200;
    });
    try {
      const created = await t.api('/api/webhooks/subscriptions', {
        method: 'POST',
        body: { publisher: SALES_ORDER_PUBLISHER, eventTypes: ['SALESORDER_UPDATED'], url: receiver.url },
      });
      expect(created.status).toBe(201);
      const orders = ['000010', '000011', '000012'];
      const events = [];
      for (let version = 1; version <= 20; version++) {
        for (const orderId of orders) events.push(salesOrderEvent(A, orderId, version));
      }
      await t.publish(...events);

      const delivered = () => receiver.received.filter((w) => w.status === 200);
      await receiver.waitFor(() => delivered().length >= events.length, 30_000, 'all 60 delivered');

      for (const orderId of orders) {
        const sent = receiver.received.filter((w) => w.json.data.orderId === orderId).map((w) => Number(w.json.data.version));
        // Everything received (retries included) never goes back to an earlier version ...
        for (let i = 1; i < sent.length; i++) expect(sent[i]).toBeGreaterThanOrEqual(sent[i - 1]);
        // ... and each version was acknowledged once, in order.
        const acknowledged = receiver.received
          .filter((w) => w.status === 200 && w.json.data.orderId === orderId)
          .map((w) => Number(w.json.data.version));
        expect(acknowledged).toEqual(Array.from({ length: 20 }, (_v, i) => i + 1));
      }
      // Retries really happened: 6 failing versions per order, twice each.
      expect(receiver.received.length).toBe(events.length + orders.length * 6 * 2);
    } finally {
      await receiver.close();
    }
  });
});
