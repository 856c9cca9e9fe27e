import { testTopicPrefix } from '@erp/testing';
import type { Kafka } from 'kafkajs';
import { ensureTopics } from '../kafka/ensure-topics';
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
import { InvalidEventError, Outbox } from './outbox';
import { OutboxRelay } from './outbox-relay';

const COMPANY = '1000001';
/** Longer than any wait of a test here: whatever is published was woken by its commit's NOTIFY. */
const POLL_INTERVAL_MS = 60 * 60_000;

describe('outbox and relay over real Postgres and Kafka', () => {
  let db: TestDatabaseHandle;
  let kafka: Kafka;
  let prefix: string;
  let topic: string;
  let outbox: Outbox;
  let relay: OutboxRelay;
  let reader: TopicReader;

  beforeAll(async () => {
    db = await startTestDatabase('outbox_relay');
    kafka = testKafka('outbox-relay-test');
    prefix = testTopicPrefix('outbox-relay');
    topic = prefixedTopic(prefix, CUSTOMER_TOPIC);
    await ensureTopics(kafka, [topic]);
    outbox = new Outbox({ source: 'messaging-tests', topicPrefix: prefix });
    // A long fallback poll: anything published quickly was woken by the commit's NOTIFY.
    relay = new OutboxRelay({ kafka, database: db.database.url, pollIntervalMs: POLL_INTERVAL_MS });
    relay.start();
    reader = await TopicReader.start([topic], { kafka });
    await waitFor('the relay to take the lock and connect', () => relay.status().active && relay.status().kafkaConnected);
  });

  afterAll(async () => {
    await reader?.stop();
    await relay?.stop();
    await db?.close();
  });

  async function commitChange(number: string) {
    return db.dataSource.transaction(async (tx) => outbox.add(tx, await changeCustomer(tx, COMPANY, number)));
  }

  it('publishes nothing for a change whose transaction rolls back, and a committed one exactly once', async () => {
    let rolledBackId: string | undefined;
    await expect(
      db.dataSource.transaction(async (tx) => {
        rolledBackId = (await outbox.add(tx, await changeCustomer(tx, COMPANY, 'RB-1'))).id;
        throw new Error('the use case failed after adding its event');
      }),
    ).rejects.toThrow('the use case failed');
    const committed = await commitChange('OK-1');

    await waitFor('the committed event', () => reader.countOf(committed.id) > 0);
    // A later event on the same key arrives after it; give any duplicate the same time to show.
    const later = await commitChange('OK-1');
    await waitFor('a later event on the same key', () => reader.countOf(later.id) > 0);
    await sleep(300);

    expect(reader.countOf(committed.id)).toBe(1);
    expect(reader.countOf(rolledBackId!)).toBe(0);
    expect(reader.events().some((event) => event.subject === 'RB-1')).toBe(false);
    const rows = await db.dataSource.query(`SELECT id, published_at, attempts FROM outbox ORDER BY sequence`);
    expect(rows.map((row: { id: string }) => row.id)).toEqual([committed.id, later.id]);
    for (const row of rows) {
      expect(row.published_at).not.toBeNull();
      expect(row.attempts).toBe(1);
    }
  });

  it('publishes the envelope under the key <companyId>:<aggregateId> with event headers', async () => {
    const event = await commitChange('KEY-1');
    await waitFor('the event', () => reader.countOf(event.id) > 0);
    const message = reader.messages.find((m) => m.headers['event-id'] === event.id)!;
    expect(message.topic).toBe(topic);
    expect(message.key).toBe(`${COMPANY}:KEY-1`);
    expect(message.headers['event-type']).toBe('CUSTOMER_UPDATED');
    expect(JSON.parse(message.value!)).toEqual(event);
  });

  it('wakes on the commit: each change is published without waiting for the fallback poll', async () => {
    // The poll is an hour away, beyond every wait's patience: each publish here came from the
    // commit's wake-up. How long that takes is bench:outbox's to measure (tools/bench), not a test's.
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const event = await commitChange(`LAT-${i % 3}`);
      ids.push(event.id);
      await waitFor('the event to be marked published (woken by its commit, not by the poll)', async () => {
        const [row] = await db.dataSource.query(`SELECT published_at FROM outbox WHERE id = $1`, [event.id]);
        return row.published_at !== null;
      });
    }
    await waitFor('the 15 events on the topic', () => ids.every((id) => reader.countOf(id) > 0));
    expect(ids.map((id) => reader.countOf(id))).toEqual(ids.map(() => 1));
  });

  it('keeps per-aggregate order for many interleaved changes', async () => {
    const expected = new Map<string, string[]>();
    await Promise.all(
      ['ORD-A', 'ORD-B', 'ORD-C', 'ORD-D'].map(async (number) => {
        for (let i = 0; i < 15; i++) {
          const event = await commitChange(number);
          expected.set(number, [...(expected.get(number) ?? []), event.data.version]);
        }
      }),
    );
    await waitFor('every event', () =>
      [...expected].every(([number, versions]) => reader.events().filter((e) => e.subject === number).length >= versions.length),
    );
    for (const [number, versions] of expected) {
      const received = reader.events().filter((e) => e.subject === number).map((e) => (e.data as { version: string }).version);
      expect(received).toEqual(versions);
    }
  });

  it('refuses to add an event outside the transaction of a change', async () => {
    await expect(outbox.add(db.dataSource.manager, await changeCustomer(db.dataSource.manager, COMPANY, 'NOTX-1'))).rejects.toThrow(
      /needs the EntityManager of the transaction/,
    );
  });

  it('refuses an event that breaks its contract, rolling back the change with it', async () => {
    const [before] = await db.dataSource.query(`SELECT count(*)::int AS n FROM outbox`);
    await expect(
      db.dataSource.transaction(async (tx) => {
        const change = await changeCustomer(tx, COMPANY, 'BAD-1');
        await outbox.add(tx, { ...change, data: { ...change.data, status: 'Sleeping' as 'Active' } });
      }),
    ).rejects.toThrow(InvalidEventError);
    const [after] = await db.dataSource.query(`SELECT count(*)::int AS n FROM outbox`);
    expect(after.n).toBe(before.n);
    expect(await db.dataSource.query(`SELECT 1 FROM test_customers WHERE number = 'BAD-1'`)).toEqual([]);
  });

  it('reports its backlog for metrics', async () => {
    await waitFor('an empty backlog', async () => (await relay.backlog()).pending === 0);
    expect(await relay.backlog()).toEqual({ pending: 0, oldestPendingAgeMs: null });
    expect(relay.status().published).toBeGreaterThanOrEqual(60);
  });
});
