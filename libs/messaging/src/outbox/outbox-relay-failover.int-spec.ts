import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { testTopicPrefix } from '@erp/testing';
import type { Kafka } from 'kafkajs';
import { createKafka } from '../kafka/kafka-client';
import { prefixedTopic } from '../kafka/topic-names';
import {
  changeCustomer,
  CUSTOMER_TOPIC,
  sleep,
  startTestDatabase,
  testKafka,
  type TestDatabaseHandle,
  TopicReader,
  waitFor,
} from '../testing/messaging-test-kit';
import { Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';

const COMPANY = '1000001';
const FAST_RETRY = { initialMs: 100, maxMs: 500 };

/**
 * Kafka going away and relays competing. The outage test stops a broker, which a test cannot do
 * to a shared real cluster, so it always runs against a dev broker of its own; the replica test
 * uses the run's cluster like the rest.
 */
describe('outbox relay when Kafka is down and when several replicas run', () => {
  let db: TestDatabaseHandle;
  const cleanup: Array<() => Promise<unknown>> = [];

  beforeEach(async () => {
    db = await startTestDatabase('outbox_failover');
  });

  afterEach(async () => {
    while (cleanup.length > 0) await cleanup.pop()!().catch(() => undefined);
    await db.close();
  });

  async function commitChange(outbox: Outbox, number: string) {
    return db.dataSource.transaction(async (tx) => outbox.add(tx, await changeCustomer(tx, COMPANY, number)));
  }

  async function pendingCount(): Promise<number> {
    const [row] = await db.dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`);
    return row.n;
  }

  it('keeps accepting changes while Kafka is down and publishes them in order once it returns', async () => {
    const broker: KafkaDevBroker = await startKafkaDevBroker({ port: 0 });
    cleanup.push(() => broker.stop());
    const kafka = createKafka({ brokers: broker.brokers, clientId: 'outbox-outage-test', logLevel: 'nothing' });
    const outbox = new Outbox({ source: 'messaging-tests' });
    const relay = new OutboxRelay({ kafka, database: db.database.url, retry: FAST_RETRY, probeIntervalMs: 200 });
    relay.start();
    cleanup.push(() => relay.stop());
    const first = await commitChange(outbox, 'DOWN-A');
    await waitFor('the first event to be published', async () => (await pendingCount()) === 0);

    await broker.stop({ keepState: true });
    const expected = new Map<string, string[]>([['DOWN-A', [first.data.version]]]);
    for (let round = 0; round < 5; round++) {
      for (const number of ['DOWN-A', 'DOWN-B', 'DOWN-C']) {
        const event = await commitChange(outbox, number);
        expected.set(number, [...(expected.get(number) ?? []), event.data.version]);
      }
    }
    await waitFor('the relay to notice Kafka is gone', () => !relay.status().kafkaConnected);
    await sleep(500);
    // Every change committed; its events wait in the outbox, with the failures recorded.
    expect(await pendingCount()).toBe(15);
    const [failed] = await db.dataSource.query(`SELECT max(attempts) AS attempts, max(last_error) AS error FROM outbox`);
    expect(failed.attempts).toBeGreaterThan(0);
    expect(failed.error).toBeTruthy();
    expect(relay.status().kafkaEverConnected).toBe(true);

    await broker.restart();
    await waitFor('the backlog to drain after Kafka returned', async () => (await pendingCount()) === 0);
    expect(relay.status().kafkaConnected).toBe(true);

    const reader = await TopicReader.start([CUSTOMER_TOPIC], { kafka });
    cleanup.push(() => reader.stop());
    await waitFor('every event', () => reader.events().length >= 16);
    for (const [number, versions] of expected) {
      const received = reader.events().filter((e) => e.subject === number).map((e) => (e.data as { version: string }).version);
      expect(received).toEqual(versions);
    }
  });

  it('lets one relay at a time publish, each event once and in order, and another take over when it stops', async () => {
    const kafka: Kafka = testKafka('outbox-replicas-test');
    const prefix = testTopicPrefix('outbox-replicas');
    const outbox = new Outbox({ source: 'messaging-tests', topicPrefix: prefix });
    const relays = [1, 2].map(
      () => new OutboxRelay({ kafka, database: db.database.url, pollIntervalMs: 300, retry: FAST_RETRY, batchSize: 3 }),
    );
    for (const relay of relays) {
      relay.start();
      cleanup.push(() => relay.stop());
    }
    await waitFor('a relay to take the lock', () => relays.some((r) => r.status().active));

    const reader = await TopicReader.start([prefixedTopic(prefix, CUSTOMER_TOPIC)], { kafka });
    cleanup.push(() => reader.stop());
    // Small batches and two relays woken by every commit: rounds of both compete for the lock.
    const versions: string[] = [];
    for (let i = 0; i < 20; i++) versions.push((await commitChange(outbox, 'REPLICA-1')).data.version);
    await waitFor('the relays to publish', async () => (await pendingCount()) === 0);
    expect(relays.reduce((sum, r) => sum + r.status().published, 0)).toBe(20);

    const [first, second] = relays as [OutboxRelay, OutboxRelay];
    await first.stop();
    const before = second.status().published;
    for (let i = 0; i < 5; i++) versions.push((await commitChange(outbox, 'REPLICA-1')).data.version);
    await waitFor('the remaining relay to publish', async () => (await pendingCount()) === 0);
    expect(second.status().published - before).toBe(5);

    await waitFor('all 25 events', () => reader.events().length >= 25);
    await sleep(300);
    // Each event once, in commit order: no two rounds ever published at the same time.
    expect(reader.events().map((e) => (e.data as { version: string }).version)).toEqual(versions);
  });

  it('flushes what is pending when stopped, then lets go of the database session', async () => {
    const kafka = testKafka('outbox-flush-test');
    const prefix = testTopicPrefix('outbox-flush');
    const outbox = new Outbox({ source: 'messaging-tests', topicPrefix: prefix });
    for (let i = 0; i < 20; i++) await commitChange(outbox, `FLUSH-${i % 4}`);
    // Batches of 5 and a stop as soon as the first batch is out: the rest (15 rows when
    // measured) is still pending when stop() is called, and stop() publishes it before returning.
    const relay = new OutboxRelay({ kafka, database: db.database.url, batchSize: 5 });
    relay.start();
    await waitFor('the relay to start publishing', () => relay.status().published > 0);
    await relay.stop();
    expect(await pendingCount()).toBe(0);
    const sessions = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE '%outbox-relay%'`,
    );
    expect(sessions[0].n).toBe(0);
    // Only this database's locks: other test files' relays hold theirs on the same server.
    const locks = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(locks[0].n).toBe(0);
  });
});
