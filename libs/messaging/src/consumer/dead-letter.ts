import type { IHeaders, Kafka, Message } from 'kafkajs';
import { OrderedProducer } from '../kafka/ordered-producer';

/** Headers a dead-lettered message carries, besides its original ones. */
export const DEAD_LETTER_HEADERS = {
  reason: 'x-dead-letter-reason',
  originalTopic: 'x-original-topic',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
  consumerGroup: 'x-consumer-group',
  attempts: 'x-attempts',
  deadLetteredAt: 'x-dead-lettered-at',
} as const;

export interface DeadLetter {
  /** The dead-letter topic. */
  topic: string;
  /** The original key and value, unchanged, so the message can be replayed as it was. */
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders;
}

/** Where parked messages go. The default is Kafka; tests substitute one that fails on demand. */
export interface DeadLetterSink {
  /** Resolves only once the message is durably stored (acks from all in-sync replicas). */
  send(letter: DeadLetter): Promise<void>;
  close(): Promise<void>;
}

export interface DeadLetterDetails {
  reason: string;
  originalTopic: string;
  originalPartition: number;
  originalOffset: string;
  consumerGroup: string;
  /** Handler attempts made (0 when the message was refused before any, e.g. invalid). */
  attempts: number;
}

const MAX_REASON_LENGTH = 4_000;

export function deadLetterHeaders(original: IHeaders | undefined, details: DeadLetterDetails): IHeaders {
  return {
    ...(original ?? {}),
    [DEAD_LETTER_HEADERS.reason]: details.reason.slice(0, MAX_REASON_LENGTH),
    [DEAD_LETTER_HEADERS.originalTopic]: details.originalTopic,
    [DEAD_LETTER_HEADERS.originalPartition]: String(details.originalPartition),
    [DEAD_LETTER_HEADERS.originalOffset]: details.originalOffset,
    [DEAD_LETTER_HEADERS.consumerGroup]: details.consumerGroup,
    [DEAD_LETTER_HEADERS.attempts]: String(details.attempts),
    [DEAD_LETTER_HEADERS.deadLetteredAt]: new Date().toISOString(),
  };
}

/** Publishes dead letters with the lib's ordered producer (idempotent, acks=all), connected on first use. */
export class KafkaDeadLetterSink implements DeadLetterSink {
  private readonly producer: OrderedProducer;

  constructor(kafka: Kafka) {
    this.producer = new OrderedProducer(kafka);
  }

  async send(letter: DeadLetter): Promise<void> {
    const producer = await this.producer.connect();
    const message: Message = { key: letter.key, value: letter.value, headers: letter.headers };
    try {
      await producer.send({ topic: letter.topic, acks: -1, messages: [message] });
    } catch (error) {
      // Start with a fresh producer next time (a stale producer id keeps failing otherwise).
      await this.producer.drop();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.producer.drop();
  }
}
