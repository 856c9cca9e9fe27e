import type { Admin, Kafka, Message } from 'kafkajs';
import { withTimeout } from '@erp/database';
import { errorMessage, type ServiceLogger } from '@erp/observability';
import { OrderedProducer } from '../../kafka/ordered-producer';

/**
 * The relay's side of Kafka: its producer, restarted when it keeps failing, and what the readiness
 * check reads (connected now, ever connected), kept current by the sends and, while idle, by a
 * metadata request now and then.
 */
export class RelayKafka {
  connected = false;
  everConnected = false;
  private readonly producer: OrderedProducer;
  private admin?: Admin;
  private lastContact = 0;

  constructor(
    private readonly kafka: Kafka,
    private readonly probeIntervalMs: number,
    private readonly logger: ServiceLogger,
  ) {
    this.producer = new OrderedProducer(kafka);
  }

  /** Connects the producer unless it is; a failure marks Kafka down and is thrown. */
  async ensureProducer(): Promise<void> {
    if (this.producer.connected) return;
    try {
      await this.producer.connect();
    } catch (error) {
      this.connected = false;
      throw error;
    }
    this.markUp();
  }

  /** One batch, acknowledged by every in-sync replica (`acks: -1`), or a failure that marks Kafka down. */
  async sendBatch(topicMessages: Array<{ topic: string; messages: Message[] }>): Promise<void> {
    try {
      const producer = await this.producer.connect();
      await producer.sendBatch({ acks: -1, topicMessages });
    } catch (error) {
      this.connected = false;
      throw error;
    }
    this.markUp();
  }

  /**
   * After a failed round: a producer that keeps failing may hold a stale producer id or epoch, so
   * every third failure in a row, or one Kafka calls non-retriable, starts a fresh one.
   */
  async afterFailure(error: unknown, consecutiveFailures: number): Promise<void> {
    if (consecutiveFailures % 3 === 0 || isNonRetriable(error)) await this.dropProducer();
  }

  /** While idle, asks Kafka for cluster metadata at most every `probeIntervalMs`, so readiness notices an outage. */
  async probeIfDue(): Promise<void> {
    if (Date.now() - this.lastContact < this.probeIntervalMs) return;
    this.lastContact = Date.now();
    try {
      await withTimeout(this.describeCluster(), 3_000, 'Kafka did not answer a metadata request in time');
      this.markUp();
    } catch (error) {
      if (this.connected) this.logger.warn(`outbox relay: Kafka does not answer: ${errorMessage(error)}`);
      this.connected = false;
      const admin = this.admin;
      this.admin = undefined;
      await admin?.disconnect().catch(() => undefined);
    }
  }

  async disconnect(): Promise<void> {
    await this.dropProducer();
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }

  private async dropProducer(): Promise<void> {
    this.connected = false;
    await this.producer.drop();
  }

  private async describeCluster(): Promise<void> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      this.admin = admin;
      await admin.connect();
    }
    await this.admin.describeCluster();
  }

  private markUp(): void {
    if (!this.connected && this.everConnected) this.logger.log('outbox relay: Kafka answers again');
    this.connected = true;
    this.everConnected = true;
    this.lastContact = Date.now();
  }
}

function isNonRetriable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retriable?: boolean }).retriable === false;
}
