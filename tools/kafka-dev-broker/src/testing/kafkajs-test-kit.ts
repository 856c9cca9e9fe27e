// Helpers for this project's integration specs (not exported by the lib).
import { Admin, Consumer, ConsumerConfig, IHeaders, Kafka, KafkaConfig, logLevel } from 'kafkajs';
import { KafkaDevBroker, KafkaDevBrokerOptions, startKafkaDevBroker } from '../kafka-dev-broker';

/** Group timings scaled down so rebalances take a few hundred milliseconds instead of seconds. */
export const FAST_GROUP: Omit<ConsumerConfig, 'groupId'> = {
  sessionTimeout: 3000,
  rebalanceTimeout: 3000,
  heartbeatInterval: 100,
  maxWaitTimeInMs: 100,
  retry: { initialRetryTime: 50, retries: 20 },
};

export interface ReceivedMessage {
  consumer: string;
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/** Tracks what a test starts so afterEach can close it in reverse order, even when the test failed. */
export class TestResources {
  private readonly closers: (() => Promise<unknown>)[] = [];

  async broker(options: KafkaDevBrokerOptions = {}): Promise<KafkaDevBroker> {
    const broker = await startKafkaDevBroker({ port: 0, ...options });
    this.closers.push(() => broker.stop());
    return broker;
  }

  kafka(broker: KafkaDevBroker, clientId: string, config: Partial<KafkaConfig> = {}): Kafka {
    return new Kafka({
      clientId,
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
      retry: { initialRetryTime: 50, retries: 8 },
      ...config,
    });
  }

  async admin(kafka: Kafka): Promise<Admin> {
    const admin = kafka.admin();
    await admin.connect();
    this.closers.push(() => admin.disconnect());
    return admin;
  }

  async producer(kafka: Kafka, config: Parameters<Kafka['producer']>[0] = {}) {
    const producer = kafka.producer(config);
    await producer.connect();
    this.closers.push(() => producer.disconnect());
    return producer;
  }

  /** A subscribed, running consumer that appends what it handles to `received`. */
  async consumer(
    kafka: Kafka,
    name: string,
    options: {
      groupId: string;
      topic: string;
      received: ReceivedMessage[];
      config?: Omit<ConsumerConfig, 'groupId'>;
      autoCommit?: boolean;
      beforeRun?: (consumer: Consumer) => void;
    },
  ): Promise<Consumer> {
    const consumer = kafka.consumer({ groupId: options.groupId, ...FAST_GROUP, ...options.config });
    this.closers.push(() => consumer.disconnect());
    options.beforeRun?.(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: options.autoCommit ?? true,
      eachMessage: async ({ topic, partition, message }) => {
        options.received.push({
          consumer: name,
          topic,
          partition,
          offset: message.offset,
          key: message.key,
          value: message.value,
          headers: message.headers ?? {},
        });
      },
    });
    return consumer;
  }

  async closeAll(): Promise<void> {
    while (this.closers.length > 0) {
      const close = this.closers.pop();
      await close?.().catch(() => undefined);
    }
  }
}

export async function waitFor(
  description: string,
  condition: () => boolean | Promise<boolean>,
  // Generous: a liveness bound (a busy 2-core CI machine), never met by a passing test.
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sum over partitions of the group's committed offsets (partitions without a commit count as 0). */
export async function committedTotal(admin: Admin, groupId: string, topic: string): Promise<number> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return offsets.partitions.reduce((sum, { offset }) => sum + Math.max(0, Number(offset)), 0);
}

export function valuesOf(messages: readonly ReceivedMessage[]): string[] {
  return messages.map(({ value }) => value?.toString() ?? '<null>');
}
