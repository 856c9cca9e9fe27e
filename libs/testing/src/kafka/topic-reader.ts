import { randomUUID } from 'node:crypto';
import { type Consumer, type IHeaders, Kafka, logLevel } from 'kafkajs';
import { testKafkaBrokers } from './test-kafka';

export interface ReceivedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
  /** Date.now() when the reader got it. */
  receivedAt: number;
}

/** An event as a reader parsed it (JSON values only), with when it arrived. */
export type ReceivedEvent = Record<string, unknown> & { id: string; type: string; subject: string; receivedAt: number };

/**
 * Reads topics of the run's Kafka from the beginning, in a consumer group of its own, and keeps
 * everything it receives: for tests that check what a service published.
 *
 * ```ts
 * const reader = await TopicReader.start([`${prefix}erp.customers.customer.v1`]);
 * await waitFor(() => reader.events().length === 2);
 * await reader.stop();
 * ```
 */
export class TopicReader {
  readonly messages: ReceivedMessage[] = [];

  private constructor(private readonly consumer: Consumer) {}

  /** Resolves once the reader has joined its group (so it is reading). */
  static async start(topics: string[], options: { kafka?: Kafka } = {}): Promise<TopicReader> {
    const kafka =
      options.kafka ?? new Kafka({ clientId: 'test-topic-reader', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING });
    // The smallest session timeout real Kafka accepts; short waits so messages show up at once.
    const consumer = kafka.consumer({
      groupId: `test-reader-${randomUUID()}`,
      sessionTimeout: 6_000,
      rebalanceTimeout: 6_000,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 100,
    });
    const reader = new TopicReader(consumer);
    let joined!: () => void;
    const hasJoined = new Promise<void>((resolve) => (joined = resolve));
    consumer.on(consumer.events.GROUP_JOIN, () => joined());
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        reader.messages.push({
          topic,
          partition,
          offset: message.offset,
          key: message.key?.toString() ?? null,
          value: message.value?.toString() ?? null,
          headers: textHeaders(message.headers),
          receivedAt: Date.now(),
        });
      },
    });
    await hasJoined;
    return reader;
  }

  /** The JSON values received so far, parsed (other values are left out). */
  events(): ReceivedEvent[] {
    return this.messages.flatMap((message) => {
      try {
        return [{ ...(JSON.parse(message.value ?? '') as ReceivedEvent), receivedAt: message.receivedAt }];
      } catch {
        return [];
      }
    });
  }

  /** How many times an event id arrived. */
  countOf(eventId: string): number {
    return this.events().filter((event) => event.id === eventId).length;
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}

function textHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.map(String).join(',') : value.toString();
  }
  return out;
}
