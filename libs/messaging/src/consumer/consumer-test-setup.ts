// Shared set-up of the consumer integration specs (not exported by the lib).
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@erp/contracts';
import { testTopicPrefix } from '@erp/testing';
import { type Kafka, Partitioners, type Producer } from 'kafkajs';
import { ensureTopics } from '../kafka/ensure-topics';
import { deadLetterTopicOf, messageKeyOf, prefixedTopic } from '../kafka/topic-names';
import { CUSTOMER_TOPIC, FAST_CONSUMER, type TestDatabaseHandle, TopicReader } from '../testing/messaging-test-kit';
import { EventConsumer, type EventConsumerOptions, type EventHandlerContext } from './event-consumer';

export interface ConsumerTestBed {
  /** The group as the consumer is given it (inbox rows, metrics, dead-letter headers). */
  groupId: string;
  /** The group on the cluster: `prefix` + `groupId` (committed offsets). */
  clusterGroupId: string;
  topic: string;
  deadLetterTopic: string;
  prefix: string;
  /** Sends raw values (or events) to the test's topic. */
  send(...values: Array<DomainEvent | string>): Promise<void>;
  startConsumer(
    handler: (event: DomainEvent, context: EventHandlerContext) => Promise<void>,
    options?: Partial<EventConsumerOptions>,
  ): Promise<EventConsumer>;
  deadLetters(): Promise<TopicReader>;
  effects(eventId?: string): Promise<number>;
  close(): Promise<void>;
}

/** A topic, dead-letter topic and group of the test's own, on the run's cluster. */
export async function consumerTestBed(db: TestDatabaseHandle, kafka: Kafka, name: string): Promise<ConsumerTestBed> {
  const prefix = testTopicPrefix(name);
  const topic = prefixedTopic(prefix, CUSTOMER_TOPIC);
  const deadLetterTopic = deadLetterTopicOf(topic);
  const groupId = `test-group-${randomUUID()}`;
  await ensureTopics(kafka, [topic, deadLetterTopic]);
  const closers: Array<() => Promise<unknown>> = [];
  let producer: Producer | undefined;

  return {
    groupId,
    clusterGroupId: prefixedTopic(prefix, groupId),
    topic,
    deadLetterTopic,
    prefix,
    async send(...values) {
      if (!producer) {
        producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
        await producer.connect();
        const connected = producer;
        closers.push(() => connected.disconnect());
      }
      await producer.send({
        topic,
        acks: -1,
        messages: values.map((value) =>
          typeof value === 'string'
            ? { key: 'raw', value }
            : { key: messageKeyOf(value), value: JSON.stringify(value) },
        ),
      });
    },
    async startConsumer(handler, options = {}) {
      const consumer = new EventConsumer({
        kafka,
        dataSource: db.dataSource,
        groupId,
        topicPrefix: prefix,
        subscriptions: [{ topic: CUSTOMER_TOPIC, handler }],
        maxAttempts: 3,
        retry: { initialMs: 50, maxMs: 200 },
        ...FAST_CONSUMER,
        ...options,
      });
      consumer.start();
      closers.push(() => consumer.stop());
      await consumer.ready();
      return consumer;
    },
    async deadLetters() {
      const reader = await TopicReader.start([deadLetterTopic], { kafka });
      closers.push(() => reader.stop());
      return reader;
    },
    async effects(eventId) {
      const [row] = await db.dataSource.query(
        `SELECT count(*)::int AS n FROM test_effects WHERE consumer_group = $1 AND ($2::uuid IS NULL OR event_id = $2::uuid)`,
        [groupId, eventId ?? null],
      );
      return row.n;
    },
    async close() {
      for (let close = closers.pop(); close; close = closers.pop()) await close().catch(() => undefined);
    },
  };
}

/** The effect a test handler writes through the handler's transaction. */
export async function recordEffect(context: EventHandlerContext, groupId: string, event: DomainEvent, note = ''): Promise<void> {
  await context.manager.query(`INSERT INTO test_effects (consumer_group, event_id, note) VALUES ($1, $2, $3)`, [
    groupId,
    event.id,
    note,
  ]);
}
