import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@erp/contracts';
import { testTopicPrefix } from '@erp/testing';
import { type Kafka, Partitioners } from 'kafkajs';
import { ensureTopics } from '../kafka/ensure-topics';
import { messageKeyOf, prefixedTopic } from '../kafka/topic-names';
import {
  committedOffsets,
  CUSTOMER_TOPIC,
  customerEvent,
  FAST_CONSUMER,
  startTestDatabase,
  testKafka,
  type TestDatabaseHandle,
  waitFor,
} from '../testing/messaging-test-kit';
import { EventConsumer } from './event-consumer';

/**
 * Two environments (say staging and a preview) on one Kafka cluster, told apart by
 * KAFKA_TOPIC_PREFIX, each running the same service with the same consumer group name. Their
 * groups on the cluster must be apart too: in one group each would be assigned some of the other's
 * partitions, and miss its own events there.
 */
describe('consumer groups under KAFKA_TOPIC_PREFIX', () => {
  const EVENTS_PER_ENVIRONMENT = 30;
  let kafka: Kafka;
  const databases: TestDatabaseHandle[] = [];
  const consumers: EventConsumer[] = [];

  beforeAll(() => {
    kafka = testKafka('consumer-prefix-test');
  });

  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop();
    for (const database of databases) await database.close();
  });

  async function environment(name: string, groupId: string) {
    const prefix = testTopicPrefix(name);
    const topic = prefixedTopic(prefix, CUSTOMER_TOPIC);
    await ensureTopics(kafka, [topic]);
    const database = await startTestDatabase(`prefix_${name}`);
    databases.push(database);
    const received: DomainEvent[] = [];
    const consumer = new EventConsumer({
      kafka,
      dataSource: database.dataSource,
      groupId,
      topicPrefix: prefix,
      subscriptions: [{ topic: CUSTOMER_TOPIC, handler: async (event) => void received.push(event) }],
      ...FAST_CONSUMER,
    });
    consumers.push(consumer);
    return { prefix, topic, received, consumer };
  }

  it('keeps each environment in a group of its own: each receives all of its events and none of the other', async () => {
    const groupId = `service.customer-snapshot-${randomUUID()}`;
    const staging = await environment('staging', groupId);
    const preview = await environment('preview', groupId);
    staging.consumer.start();
    preview.consumer.start();
    await Promise.all([staging.consumer.ready(), preview.consumer.ready()]);

    const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    const sent = new Map<string, DomainEvent[]>();
    for (const env of [staging, preview]) {
      // Many keys, so the events land on every partition of the topic.
      const events = Array.from({ length: EVENTS_PER_ENVIRONMENT }, (_, i) => customerEvent(`${env.prefix}-${i}`));
      sent.set(env.prefix, events);
      await producer.send({ topic: env.topic, acks: -1, messages: events.map((e) => ({ key: messageKeyOf(e), value: JSON.stringify(e) })) });
    }
    await producer.disconnect();

    const ids = (events: DomainEvent[]) => events.map((e) => e.id).sort();
    for (const env of [staging, preview]) {
      await waitFor(`${env.prefix}: its ${EVENTS_PER_ENVIRONMENT} events`, () => env.received.length >= EVENTS_PER_ENVIRONMENT);
      expect(ids(env.received)).toEqual(ids(sent.get(env.prefix) ?? []));
    }
    // The groups on the cluster carry the prefixes; the unprefixed name has committed nothing.
    await waitFor('offsets committed under the prefixed group names', async () => {
      const offsets = await committedOffsets(kafka, `${staging.prefix}${groupId}`, staging.topic);
      return [...offsets.values()].some((offset) => offset > 0);
    });
    const unprefixed = await committedOffsets(kafka, groupId, staging.topic);
    expect([...unprefixed.values()].every((offset) => offset < 0)).toBe(true);
  });
});
