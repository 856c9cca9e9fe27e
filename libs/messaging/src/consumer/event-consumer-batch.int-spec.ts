import type { DomainEvent } from '@erp/contracts';
import type { Kafka } from 'kafkajs';
import { currentTenantScope } from '@erp/database';
import {
  committedOffsets,
  customerEvent,
  sleep,
  startTestDatabase,
  testKafka,
  type TestDatabaseHandle,
  waitFor,
} from '../testing/messaging-test-kit';
import { type ConsumerTestBed, consumerTestBed, recordEffect } from './consumer-test-setup';
import { DEAD_LETTER_HEADERS } from './dead-letter';
import type { EventHandlerContext } from './event-consumer';

/**
 * The grouped path: consecutive messages of a partition in one transaction. Every event of a
 * test has the same key, so all of them are on one partition and arrive in one fetch.
 */
describe('consumer: several messages per transaction, over real Postgres and Kafka', () => {
  let db: TestDatabaseHandle;
  let kafka: Kafka;
  let bed: ConsumerTestBed;

  beforeAll(async () => {
    db = await startTestDatabase('event_consumer_batch');
    kafka = testKafka('event-consumer-batch-test');
  });
  afterAll(() => db.close());

  beforeEach(async () => {
    bed = await consumerTestBed(db, kafka, expect.getState().currentTestName ?? 'batch');
  });
  afterEach(() => bed.close());

  function burst(subject: string, count: number): DomainEvent[] {
    return Array.from({ length: count }, (_, i) => customerEvent(subject, String(i + 1)));
  }

  async function totalCommitted(): Promise<number> {
    const offsets = await committedOffsets(kafka, bed.clusterGroupId, bed.topic);
    return [...offsets.values()].reduce((sum, offset) => sum + Math.max(0, offset), 0);
  }

  /** The effects in the order they were written, as event ids. */
  async function effectOrder(): Promise<string[]> {
    const rows: Array<{ event_id: string }> = await db.dataSource.query(
      `SELECT event_id::text FROM test_effects WHERE consumer_group = $1 ORDER BY id`,
      [bed.groupId],
    );
    return rows.map((row) => row.event_id);
  }

  async function processedCount(): Promise<number> {
    const [row] = await db.dataSource.query(`SELECT count(*)::int AS n FROM processed_events WHERE consumer_group = $1`, [bed.groupId]);
    return row.n;
  }

  async function transactionId(context: EventHandlerContext): Promise<string> {
    const [row] = await context.manager.query(`SELECT txid_current()::text AS txid`);
    return row.txid;
  }

  it('handles a burst in far fewer transactions than messages, each event once and in order', async () => {
    const transactions: string[] = [];
    const consumer = await bed.startConsumer(async (event, context) => {
      transactions.push(await transactionId(context));
      await recordEffect(context, bed.groupId, event);
    });
    const events = burst('GROUP-1', 30);
    await bed.send(...events);
    await waitFor('thirty handled', () => consumer.status().handled === 30);
    await waitFor('all offsets committed', async () => (await totalCommitted()) === 30);
    expect(new Set(transactions).size).toBeLessThanOrEqual(3);
    expect(await effectOrder()).toEqual(events.map((e) => e.id));
    expect(await processedCount()).toBe(30);
    expect(consumer.status()).toMatchObject({ handled: 30, duplicates: 0, deadLettered: 0 });
  });

  it('runs each event in its company scope, and never one transaction for two companies (the tenant wall binds one)', async () => {
    const seen: Array<{ company: string; scope: string; txid: string }> = [];
    const consumer = await bed.startConsumer(async (event, context) => {
      const scope = currentTenantScope();
      seen.push({ company: event.companyId, scope: scope.kind === 'company' ? scope.companyId : 'service', txid: await transactionId(context) });
      await recordEffect(context, bed.groupId, event);
    });
    // One subject per company, so both keep one partition each; runs of one company between the other's.
    const events = [1, 2, 3].flatMap((run) =>
      Array.from({ length: 5 }, (_, i) => customerEvent('SCOPED', String(run * 10 + i), run === 2 ? '2000002' : '1000001')),
    );
    await bed.send(...events);
    await waitFor('fifteen handled', () => consumer.status().handled === 15);
    expect(seen.map((s) => s.scope)).toEqual(seen.map((s) => s.company));
    const companiesPerTransaction = new Map<string, Set<string>>();
    for (const s of seen) companiesPerTransaction.set(s.txid, (companiesPerTransaction.get(s.txid) ?? new Set()).add(s.company));
    expect([...companiesPerTransaction.values()].every((companies) => companies.size === 1)).toBe(true);
    // Still grouped: far fewer transactions than events.
    expect(companiesPerTransaction.size).toBeLessThan(15);
  });

  it('dead-letters a poison message inside a group alone, after exactly maxAttempts tries; the others are processed exactly once', async () => {
    const events = burst('POISON-IN-GROUP', 10);
    const poison = events[3];
    const calls = new Map<string, number>();
    const consumer = await bed.startConsumer(async (event, context) => {
      calls.set(event.id, (calls.get(event.id) ?? 0) + 1);
      await recordEffect(context, bed.groupId, event);
      if (event.id === poison.id) throw new Error('this one is poison');
    });
    const dlq = await bed.deadLetters();
    await bed.send(...events);
    await waitFor('the dead letter', () => dlq.messages.length === 1);
    await waitFor('all ten offsets committed', async () => (await totalCommitted()) === 10);
    const [letter] = dlq.messages;
    expect(JSON.parse(letter!.value!)).toEqual(poison);
    expect(letter!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.reason]: 'handler failed 3 time(s): Error: this one is poison',
      [DEAD_LETTER_HEADERS.originalOffset]: '3',
      [DEAD_LETTER_HEADERS.attempts]: '3',
    });
    // The failure inside the group counted as the poison's first attempt: 3 calls in all.
    expect(calls.get(poison.id)).toBe(3);
    const others = events.filter((e) => e !== poison).map((e) => e.id);
    expect(await effectOrder()).toEqual(others);
    expect(await processedCount()).toBe(9);
    expect(consumer.status()).toMatchObject({ handled: 9, duplicates: 0, deadLettered: 1 });
    await sleep(300);
    expect(dlq.messages).toHaveLength(1);
  });

  it('rolls a group back when a handler fails mid-group and redoes it without duplicates', async () => {
    const events = burst('ROLLBACK-1', 10);
    const flaky = events[6];
    const calls = new Map<string, number>();
    const consumer = await bed.startConsumer(async (event, context) => {
      const n = (calls.get(event.id) ?? 0) + 1;
      calls.set(event.id, n);
      await recordEffect(context, bed.groupId, event, `call ${n}`);
      if (event.id === flaky.id && n === 1) throw new Error('transient failure');
    });
    const dlq = await bed.deadLetters();
    await bed.send(...events);
    await waitFor('ten handled', () => consumer.status().handled === 10);
    await waitFor('all ten offsets committed', async () => (await totalCommitted()) === 10);
    // The events before the failing one ran twice (the first group rolled back), yet each left
    // one effect, in order, and one processed_events row.
    for (const event of events.slice(0, 6)) expect(calls.get(event.id)).toBe(2);
    expect(calls.get(flaky.id)).toBe(2);
    expect(await effectOrder()).toEqual(events.map((e) => e.id));
    expect(await processedCount()).toBe(10);
    await sleep(300);
    expect(dlq.messages).toEqual([]);
  });

  it('turns a redelivered group (after a crash before the offset commit) into no-ops, also for copies within one group', async () => {
    let calls = 0;
    const handler = async (event: DomainEvent, context: EventHandlerContext) => {
      calls++;
      await recordEffect(context, bed.groupId, event);
    };
    const first = await bed.startConsumer(handler);
    const events = burst('REDELIVER-1', 8);
    await bed.send(...events);
    await waitFor('eight handled', () => first.status().handled === 8);
    await first.stop();

    // What a redelivery looks like: the same events again (as a relay that crashed after Kafka
    // acknowledged but before it marked its rows would send them), with a copy inside the group
    // and two new events after them.
    const second = await bed.startConsumer(handler);
    const fresh = burst('REDELIVER-2', 2);
    await bed.send(...events, events[0], ...fresh);
    await waitFor('the redelivery acknowledged', () => second.status().handled + second.status().duplicates === 11);
    expect(second.status()).toMatchObject({ handled: 2, duplicates: 9, deadLettered: 0 });
    expect(calls).toBe(10);
    expect(await effectOrder()).toEqual([...events, ...fresh].map((e) => e.id));
    await waitFor('every offset committed', async () => (await totalCommitted()) === 19);
  });

  it('keeps one transaction per message with transactionBatchSize 1', async () => {
    const transactions: string[] = [];
    const consumer = await bed.startConsumer(
      async (event, context) => {
        transactions.push(await transactionId(context));
        await recordEffect(context, bed.groupId, event);
      },
      { transactionBatchSize: 1 },
    );
    await bed.send(...burst('SINGLE-1', 5));
    await waitFor('five handled', () => consumer.status().handled === 5);
    expect(new Set(transactions).size).toBe(5);
  });
});
