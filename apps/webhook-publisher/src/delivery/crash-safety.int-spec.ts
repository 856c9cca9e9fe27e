import { Client } from 'pg';
import type { Kafka, Producer } from 'kafkajs';
import type { DomainEvent } from '@erp/contracts';
import { TestAuth, testKafkaBrokers, type TestDatabase } from '@erp/testing';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { startPublisherProcess, type PublisherProcess } from '../testing/publisher-process';
import { TestReceiver } from '../testing/test-receiver';
import {
  createTestTopics,
  createWebhooksDatabase,
  publishEvents,
  salesOrderEvent,
  TEST_WEBHOOK_ENV,
} from '../testing/webhooks-test-app';

const A = '1000001';
const EVENTS = 1000;

describe('crash safety', () => {
  let database: TestDatabase & { runtimeUrl: string };
  let kafka: Kafka;
  let producer: Producer;
  let prefix: string;
  let receiver: TestReceiver;
  let publisher: PublisherProcess | undefined;
  const auth = new TestAuth();

  beforeAll(async () => {
    database = await createWebhooksDatabase();
    ({ prefix, kafka } = await createTestTopics('webhook-crash'));
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    // A little slower than instant, so the kill lands while deliveries are in flight.
    receiver = await TestReceiver.start(() => ({ status: 200, delayMs: 3 }));
  });
  afterAll(async () => {
    await publisher?.kill('SIGKILL');
    await receiver.close();
    await producer.disconnect();
    await database.drop();
  });

  function start(): Promise<PublisherProcess> {
    return startPublisherProcess({
      DATABASE_URL: database.runtimeUrl,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: prefix,
      ...auth.serviceEnv,
      ...TEST_WEBHOOK_ENV,
      WEBHOOKS_TIMEOUT_MS: '500',
      WEBHOOKS_LEASE_MS: '1500',
      WEBHOOKS_CONCURRENCY: '16',
      // The killed member's partitions move to the restarted one after this long.
      WEBHOOKS_CONSUMER_SESSION_TIMEOUT_MS: '6000',
    });
  }

  it('delivers every one of 1,000 events at least once when the publisher is SIGKILLed mid-delivery and restarted', async () => {
    publisher = await start();
    const response = await fetch(`${publisher.url}/api/webhooks/subscriptions`, {
      method: 'POST',
      headers: { ...(await auth.headers({ company: A })), 'content-type': 'application/json' },
      body: JSON.stringify({ publisher: SALES_ORDER_PUBLISHER, eventTypes: ['SALESORDER_UPDATED'], url: receiver.url }),
    });
    expect(response.status).toBe(201);

    // 200 orders x 5 updates.
    const events: DomainEvent[] = [];
    for (let version = 1; version <= 5; version++) {
      for (let order = 1; order <= EVENTS / 5; order++) events.push(salesOrderEvent(A, String(order).padStart(6, '0'), version));
    }
    await publishEvents(producer, prefix, events);

    await receiver.waitFor((r) => r.length >= 250, 30_000, '250 deliveries before the kill');
    await publisher.kill('SIGKILL');
    const atKill = receiver.distinctIds().size;
    expect(atKill).toBeLessThan(EVENTS);

    publisher = await start();
    await receiver.waitFor(() => receiver.distinctIds().size >= EVENTS, 40_000, 'every event after the restart');
    const expected = new Set(events.map((e) => e.id));
    expect([...receiver.distinctIds()].filter((id) => !expected.has(id))).toEqual([]);
    expect(receiver.distinctIds().size).toBe(EVENTS);

    const sql = new Client({ connectionString: database.url });
    await sql.connect();
    try {
      for (let i = 0; i < 50; i++) {
        const { rows } = await sql.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`);
        if (rows[0].n === EVENTS) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const { rows } = await sql.query(`SELECT status, count(*)::int AS n FROM webhook_deliveries GROUP BY status`);
      expect(rows).toEqual([{ status: 'delivered', n: EVENTS }]);
    } finally {
      await sql.end();
    }
    process.stdout.write(
      `crash safety: ${atKill} distinct delivered before SIGKILL, ${receiver.received.length} requests for ${EVENTS} events (${receiver.received.length - EVENTS} duplicates)\n`,
    );
  });
});
