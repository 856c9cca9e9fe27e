import type { DomainEvent } from '@erp/contracts';
import type { Kafka } from 'kafkajs';
import { metricsRegistry } from '@erp/observability';
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

describe('idempotent consumer over real Postgres and Kafka', () => {
  let db: TestDatabaseHandle;
  let kafka: Kafka;
  let bed: ConsumerTestBed;

  beforeAll(async () => {
    db = await startTestDatabase('event_consumer');
    kafka = testKafka('event-consumer-test');
  });
  afterAll(() => db.close());

  beforeEach(async () => {
    bed = await consumerTestBed(db, kafka, expect.getState().currentTestName ?? 'consumer');
  });
  afterEach(() => bed.close());

  async function processedCount(eventId: string): Promise<number> {
    const [row] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM processed_events WHERE consumer_group = $1 AND event_id = $2`,
      [bed.groupId, eventId],
    );
    return row.n;
  }

  it('hands each valid event to the handler with the transaction, and records it as processed', async () => {
    const seen: DomainEvent[] = [];
    const contexts: Array<{ topic: string; attempt: number }> = [];
    const consumer = await bed.startConsumer(async (event, context) => {
      seen.push(event);
      contexts.push({ topic: context.topic, attempt: context.attempt });
      await recordEffect(context, bed.groupId, event);
    });
    const events = [customerEvent('H-1', '1'), customerEvent('H-1', '2'), customerEvent('H-2', '1')];
    await bed.send(...events);
    await waitFor('three events', () => seen.length === 3);
    await waitFor('the handled count', () => consumer.status().handled === 3);
    expect(seen.filter((e) => e.subject === 'H-1').map((e) => (e.data as { version: string }).version)).toEqual(['1', '2']);
    expect(contexts).toEqual(Array(3).fill({ topic: 'erp.customers.customer.v1', attempt: 1 }));
    for (const event of events) {
      expect(await bed.effects(event.id)).toBe(1);
      expect(await processedCount(event.id)).toBe(1);
    }
  });

  it('reports the group’s lag per partition on /metrics: up while messages wait, 0 once handled', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let handledCount = 0;
    await bed.startConsumer(async (event, context) => {
      if (handledCount === 1) await gate;
      handledCount++;
      await recordEffect(context, bed.groupId, event);
    });
    // One key, so one partition: the second message waits behind the gate while four follow it.
    await bed.send(...['1', '2', '3', '4', '5', '6'].map((version) => customerEvent('LAG-1', version)));
    const lagOfGroup = async () => {
      const metric = (await metricsRegistry.getSingleMetric('kafka_consumer_lag_messages')?.get())?.values ?? [];
      return metric.filter((v) => v.labels.group === bed.groupId).map((v) => v.value);
    };
    await waitFor('a lag reading while messages wait', async () => (await lagOfGroup()).some((v) => v > 0));
    release();
    await waitFor('all six handled', () => handledCount === 6);
    await waitFor('the lag back at 0', async () => {
      const values = await lagOfGroup();
      return values.length > 0 && values.every((v) => v === 0);
    });
  });

  it('processes a duplicate delivery of the same event id once', async () => {
    let calls = 0;
    const consumer = await bed.startConsumer(async (event, context) => {
      calls++;
      await recordEffect(context, bed.groupId, event);
    });
    const event = customerEvent('DUP-1');
    await bed.send(event, event);
    await bed.send(event);
    await waitFor('three deliveries', () => consumer.status().handled + consumer.status().duplicates === 3);
    expect(calls).toBe(1);
    expect(consumer.status().duplicates).toBe(2);
    expect(await bed.effects(event.id)).toBe(1);
    // The duplicates were acknowledged too: all three offsets are committed.
    const offsets = [...(await committedOffsets(kafka, bed.clusterGroupId, bed.topic)).values()];
    expect(offsets.reduce((sum, offset) => sum + Math.max(0, offset), 0)).toBe(3);
  });

  it('commits the offset only after the handler’s transaction has committed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered = false;
    await bed.startConsumer(async (event, context) => {
      await recordEffect(context, bed.groupId, event);
      entered = true;
      await gate;
    });
    const event = customerEvent('GATE-1');
    await bed.send(event);
    await waitFor('the handler to start', () => entered);
    await sleep(500);
    // Mid-transaction: nothing committed in Kafka, nothing visible in the database.
    expect([...(await committedOffsets(kafka, bed.clusterGroupId, bed.topic)).values()].every((o) => o < 0)).toBe(true);
    expect(await bed.effects(event.id)).toBe(0);
    expect(await processedCount(event.id)).toBe(0);

    release();
    await waitFor('the offset to be committed', async () =>
      [...(await committedOffsets(kafka, bed.clusterGroupId, bed.topic)).values()].some((o) => o === 1),
    );
    expect(await bed.effects(event.id)).toBe(1);
    expect(await processedCount(event.id)).toBe(1);
  });

  it('leaves one effect for a handler that fails once then succeeds, and does not redeliver after a restart', async () => {
    const calls = new Map<string, number>();
    const handler = async (event: DomainEvent, context: Parameters<Parameters<ConsumerTestBed['startConsumer']>[0]>[1]) => {
      const n = (calls.get(event.id) ?? 0) + 1;
      calls.set(event.id, n);
      // The failed attempt's write must roll back with it.
      await recordEffect(context, bed.groupId, event, `attempt ${n}`);
      if (n === 1) throw new Error('transient failure');
    };
    const first = await bed.startConsumer(handler);
    const event = customerEvent('FLAKY-1');
    await bed.send(event);
    await waitFor('the event to be handled', () => first.status().handled === 1);
    expect(calls.get(event.id)).toBe(2);
    expect(await bed.effects(event.id)).toBe(1);
    await first.stop();

    const second = await bed.startConsumer(handler);
    const sentinel = customerEvent('FLAKY-1', '2');
    await bed.send(sentinel);
    await waitFor('the next event after the restart', () => (calls.get(sentinel.id) ?? 0) >= 2);
    await sleep(300);
    expect(calls.get(event.id)).toBe(2);
    expect(second.status().duplicates).toBe(0);
    expect(await bed.effects(event.id)).toBe(1);
  });

  it('hands only the wanted event types to a handler, acknowledging the others', async () => {
    const seen: string[] = [];
    const consumer = await bed.startConsumer(async (event) => void seen.push(event.type), {
      subscriptions: [
        {
          topic: 'erp.customers.customer.v1',
          eventTypes: ['CUSTOMER_CREATED'],
          handler: async (event) => void seen.push(event.type),
        },
      ],
    });
    const created = { ...customerEvent('TYPES-1'), type: 'CUSTOMER_CREATED' as const };
    await bed.send(customerEvent('TYPES-1'), created);
    await waitFor('the created event', () => seen.length === 1);
    await waitFor('both offsets committed', async () =>
      [...(await committedOffsets(kafka, bed.clusterGroupId, bed.topic)).values()].reduce((s, o) => s + Math.max(0, o), 0) === 2,
    );
    expect(seen).toEqual(['CUSTOMER_CREATED']);
    expect(consumer.status().deadLettered).toBe(0);
  });
});
