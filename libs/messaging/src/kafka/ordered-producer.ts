import { type Kafka, Partitioners, type Producer } from 'kafkajs';

/**
 * The one producer setup of this lib (the outbox relay's and the dead letters'): idempotent, one
 * request in flight, so a retried send can neither duplicate nor reorder a partition's messages;
 * Java-compatible murmur2 on the key, so a key lands on the partition any other Kafka client picks;
 * short retries of its own, since the caller's backoff takes over when Kafka stays down.
 *
 * Connected on first use (concurrent callers share the attempt); `drop()` disconnects it, and the
 * next use starts a fresh producer, as a producer holding a stale producer id or epoch keeps failing.
 */
export class OrderedProducer {
  private producer?: Producer;
  private connecting?: Promise<Producer>;

  constructor(private readonly kafka: Kafka) {}

  get connected(): boolean {
    return this.producer !== undefined;
  }

  connect(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: { retries: 3, initialRetryTime: 100, maxRetryTime: 1_000 },
      });
      try {
        await producer.connect();
      } catch (error) {
        this.connecting = undefined;
        await producer.disconnect().catch(() => undefined);
        throw error;
      }
      this.producer = producer;
      return producer;
    })();
    return this.connecting;
  }

  async drop(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.connecting = undefined;
    await producer?.disconnect().catch(() => undefined);
  }
}
