import { createEvent, type DomainEvent, type EventType, type NewEventInput, topicOf, validateEnvelope } from '@erp/contracts';
import type { EntityManager } from 'typeorm';
import { messageKeyOf, prefixedTopic } from '../kafka/topic-names';
import { traceCreate } from '../tracing/message-tracing';

/** The NOTIFY channel that wakes the relay. Notifications are per database, like the table. */
export const OUTBOX_CHANNEL = 'erp_outbox';

export interface OutboxOptions {
  /** The producing service, written as each envelope's `source`, e.g. `customers-v1`. */
  source: string;
  /** Deployment prefix of topic names (see `prefixedTopic`). Default none. */
  topicPrefix?: string;
}

/** An event to add: the envelope without `source` (the outbox knows it); `id`/`time` optional. */
export type OutboxEventInput<T extends EventType> = Omit<NewEventInput<T>, 'source'>;

/** An event that fails its own contract: a bug in the producer, never published. */
export class InvalidEventError extends Error {
  constructor(
    readonly type: string,
    readonly problems: string[],
  ) {
    super(`Invalid ${type} event: ${problems.join('; ')}`);
    this.name = 'InvalidEventError';
  }
}

/**
 * Adds events to the transactional outbox. `add` writes the event in the caller's transaction,
 * so it exists exactly when the state change does: no event for a change that rolled back, no
 * change without its event. The relay publishes it after the commit.
 */
export class Outbox {
  private readonly source: string;
  private readonly topicPrefix: string;

  constructor(options: OutboxOptions) {
    this.source = options.source;
    this.topicPrefix = options.topicPrefix ?? '';
  }

  /**
   * Validates the event against its contract, inserts it, and queues a NOTIFY that Postgres
   * delivers only when the transaction commits (and drops on rollback), so the relay wakes at
   * once and never for nothing. Call it after the write that changes (and so locks) the
   * aggregate: that makes outbox order equal commit order for each aggregate.
   */
  async add<T extends EventType>(manager: EntityManager, input: OutboxEventInput<T>): Promise<DomainEvent<T>> {
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error(
        'Outbox.add needs the EntityManager of the transaction that makes the change (dataSource.transaction(tx => ...))',
      );
    }
    const event = createEvent<T>({ ...input, source: this.source } as NewEventInput<T>);
    const topic = topicOf(event.type);
    const checked = validateEnvelope(event, { topic });
    if (!checked.valid) throw new InvalidEventError(event.type, checked.problems);
    const destination = prefixedTopic(this.topicPrefix, topic);
    // With tracing on, the row keeps the trace context of the change (the request's), which the
    // relay sends along as Kafka headers.
    await traceCreate({ topic: destination, eventId: event.id, eventType: event.type, companyId: event.companyId }, (carrier) =>
      manager.query(
        `WITH added AS (
           INSERT INTO outbox (id, topic, message_key, event_type, payload, trace_context) VALUES ($1, $2, $3, $4, $5::jsonb, $7::jsonb)
           RETURNING 1
         )
         SELECT pg_notify($6, '') FROM added`,
        [event.id, destination, messageKeyOf(event), event.type, JSON.stringify(event), OUTBOX_CHANNEL, carrier ? JSON.stringify(carrier) : null],
      ),
    );
    return event;
  }
}
