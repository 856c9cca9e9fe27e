import type { Kafka } from 'kafkajs';
import {
  committedOffsets,
  customerData,
  customerEvent,
  sleep,
  startTestDatabase,
  testKafka,
  type TestDatabaseHandle,
  waitFor,
} from '../testing/messaging-test-kit';
import { type ConsumerTestBed, consumerTestBed, recordEffect } from './consumer-test-setup';
import { DEAD_LETTER_HEADERS, type DeadLetter, type DeadLetterSink, KafkaDeadLetterSink } from './dead-letter';

describe('consumer retries and dead letters over real Postgres and Kafka', () => {
  let db: TestDatabaseHandle;
  let kafka: Kafka;
  let bed: ConsumerTestBed;

  beforeAll(async () => {
    db = await startTestDatabase('event_consumer_dlq');
    kafka = testKafka('event-consumer-dlq-test');
  });
  afterAll(() => db.close());

  beforeEach(async () => {
    bed = await consumerTestBed(db, kafka, expect.getState().currentTestName ?? 'dead-letter');
  });
  afterEach(() => bed.close());

  async function totalCommitted(): Promise<number> {
    const offsets = await committedOffsets(kafka, bed.clusterGroupId, bed.topic);
    return [...offsets.values()].reduce((sum, offset) => sum + Math.max(0, offset), 0);
  }

  it('retries a handler that throws, then dead-letters the message with the reason and commits it', async () => {
    let calls = 0;
    const consumer = await bed.startConsumer(async (event, context) => {
      calls++;
      await recordEffect(context, bed.groupId, event);
      throw new Error('customer snapshot table is locked');
    });
    const dlq = await bed.deadLetters();
    const poison = customerEvent('POISON-1');
    const next = customerEvent('POISON-1', '2');
    await bed.send(poison);
    await waitFor('the dead letter', () => dlq.messages.length === 1);
    const [letter] = dlq.messages;
    expect(calls).toBe(3);
    expect(letter!.key).toBe(`1000001:POISON-1`);
    expect(JSON.parse(letter!.value!)).toEqual(poison);
    expect(letter!.headers).toMatchObject({
      [DEAD_LETTER_HEADERS.reason]: 'handler failed 3 time(s): Error: customer snapshot table is locked',
      [DEAD_LETTER_HEADERS.originalTopic]: bed.topic,
      [DEAD_LETTER_HEADERS.originalOffset]: '0',
      [DEAD_LETTER_HEADERS.consumerGroup]: bed.groupId,
      [DEAD_LETTER_HEADERS.attempts]: '3',
    });
    expect(letter!.headers[DEAD_LETTER_HEADERS.originalPartition]).toMatch(/^\d$/);
    await waitFor('the offset to be committed', async () => (await totalCommitted()) === 1);
    // Failed attempts left nothing behind, and the partition moves on to later events.
    expect(await bed.effects()).toBe(0);
    await bed.send(next);
    await waitFor('the next event to be tried and parked', () => dlq.messages.length === 2);
    expect(calls).toBe(6);
    expect(consumer.status().deadLettered).toBe(2);
  });

  it('waits for an unreachable database without spending attempts: no dead letter, handled once it is back', async () => {
    let calls = 0;
    const consumer = await bed.startConsumer(async (event, context) => {
      calls++;
      // Three times the attempts allowed: what a database outage looks like to a handler.
      if (calls <= 9) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      await recordEffect(context, bed.groupId, event);
    });
    const dlq = await bed.deadLetters();
    await bed.send(customerEvent('OUTAGE-1'));
    await waitFor('the event handled after the outage', async () => (await bed.effects()) === 1);
    expect(calls).toBe(10);
    expect(consumer.status()).toMatchObject({ handled: 1, deadLettered: 0 });
    await sleep(300);
    expect(dlq.messages).toEqual([]);
  });

  it('dead-letters invalid envelopes with the problems, without calling the handler', async () => {
    let calls = 0;
    await bed.startConsumer(async () => void calls++);
    const dlq = await bed.deadLetters();
    const wrongData = { ...customerEvent('BAD-1'), data: { ...customerData('BAD-1', '1'), status: 'Sleeping' } };
    await bed.send('{"not": "closed"', JSON.stringify({ hello: 'world' }), JSON.stringify(wrongData));
    await waitFor('three dead letters', () => dlq.messages.length === 3);
    const reasons = dlq.messages.map((m) => m.headers[DEAD_LETTER_HEADERS.reason]);
    expect(reasons[0]).toMatch(/^invalid event: not JSON/);
    expect(reasons[1]).toMatch(/^invalid event: id: .*type: .*companyId: /);
    expect(reasons[2]).toMatch(/^invalid event: data\.status: status must be one of the following values/);
    expect(dlq.messages.map((m) => m.headers[DEAD_LETTER_HEADERS.attempts])).toEqual(['0', '0', '0']);
    expect(dlq.messages[0]!.value).toBe('{"not": "closed"');
    await waitFor('all three offsets committed', async () => (await totalCommitted()) === 3);
    expect(calls).toBe(0);
  });

  it('commits nothing while the dead-letter publish fails, and parks the message once it works', async () => {
    const real = new KafkaDeadLetterSink(kafka);
    let failuresLeft = 2;
    const sends: DeadLetter[] = [];
    const flakySink: DeadLetterSink = {
      async send(letter) {
        sends.push(letter);
        if (failuresLeft-- > 0) throw new Error('dead-letter topic unavailable');
        await real.send(letter);
      },
      close: () => real.close(),
    };
    let calls = 0;
    await bed.startConsumer(
      async () => {
        calls++;
        throw new Error('always fails');
      },
      { deadLetterSink: flakySink, maxAttempts: 2 },
    );
    const dlq = await bed.deadLetters();
    await bed.send(customerEvent('NO-LOSS-1'));
    await waitFor('the first failed dead-letter publish', () => sends.length >= 1);
    expect(await totalCommitted()).toBe(0);
    await waitFor('the message to be parked', () => dlq.messages.length === 1);
    await waitFor('the offset to be committed', async () => (await totalCommitted()) === 1);
    expect(sends).toHaveLength(3);
    // Each redelivery ran the handler's attempts again before trying to park it.
    expect(calls).toBe(6);
    await sleep(300);
    expect(dlq.messages).toHaveLength(1);
  });

  it('keeps the group membership alive through a handler longer than the session timeout', async () => {
    let calls = 0;
    const consumer = await bed.startConsumer(async (event, context) => {
      calls++;
      await sleep(8_000);
      await recordEffect(context, bed.groupId, event);
    });
    const event = customerEvent('SLOW-1');
    await bed.send(event);
    await waitFor('the slow event to be handled', () => consumer.status().handled === 1);
    await waitFor('the offset to be committed', async () => (await totalCommitted()) === 1);
    // Had the session expired, the commit would have failed and the event come back.
    await sleep(500);
    expect(calls).toBe(1);
    expect(consumer.status().duplicates).toBe(0);
    expect(await bed.effects(event.id)).toBe(1);
  }, 40_000);
});
