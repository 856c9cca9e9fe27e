import { type DomainEvent, validateEnvelope } from '@erp/contracts';
import { isTransientConnectionError } from '@erp/errors';
import type { KafkaMessage } from 'kafkajs';
import { backoffDelay, queryRows, runAsCompany, sleep } from '@erp/database';
import { deadLetterTopicOf, unprefixedTopic } from '../kafka/topic-names';
import { errorMessage, type MessagingLogger } from '../logger';
import { traceProcess } from '../tracing/message-tracing';
import { deadLetterHeaders, type DeadLetterSink } from './dead-letter';
import { CONSUMER_DEFAULTS, type EventConsumerOptions, type EventConsumerStatus, type EventSubscription } from './event-consumer.options';
import { InvalidEventPayloadError } from './invalid-event-payload.error';

const CLEANUP_INTERVAL_MS = 60 * 60_000;

/** What `handleGroup` did with the messages it was given. */
export type GroupOutcome =
  /** The first `count` messages are handled for good (committed in one transaction). */
  | { kind: 'done'; count: number }
  /** The handler threw for message `index`; the transaction rolled back, so nothing is handled. */
  | { kind: 'failed'; index: number; error: unknown }
  /** Not a case for a group: the first message goes on its own (see `handle`). */
  | { kind: 'single' };

/** Thrown out of kafkajs's message callback so the message is neither resolved nor committed. */
export class StoppingError extends Error {
  constructor() {
    super('consumer is stopping; the message will be delivered again');
    this.name = 'StoppingError';
  }
}

/** What the inbox handler needs of its consumer. */
export interface InboxHandlerOptions {
  options: EventConsumerOptions;
  logger: MessagingLogger;
  subscriptions: ReadonlyMap<string, EventSubscription>;
  sink: DeadLetterSink;
  /** The deployment prefix of the topics. */
  prefix: string;
  /** The consumer's counters, which the handler keeps. */
  state: EventConsumerStatus;
  isStopping(): boolean;
  /** Aborted when the consumer stops: pauses between attempts end at once. */
  signal(): AbortSignal;
}

/**
 * The inbox side of a consumer: each message's (or group of messages') transaction with its
 * processed_events record and its handler, the retries, the dead letters and the inbox clean-up.
 * The consumer (`EventConsumer`) owns Kafka: joining, fetching, committing offsets.
 */
export class InboxHandler {
  private lastCleanup = 0;

  constructor(private readonly o: InboxHandlerOptions) {}

  /**
   * Handles consecutive messages (at least two, in partition order) in ONE transaction: records
   * the wanted events in processed_events with one statement (a redelivered event finds its row
   * and is a duplicate), calls each handler for the newly recorded ones in order on that
   * transaction, and commits once. The group ends before the first message that must be
   * dead-lettered without a handler (no subscription, invalid envelope): `handle` parks it alone.
   */
  async handleGroup(topic: string, partition: number, messages: KafkaMessage[]): Promise<GroupOutcome> {
    const contractTopic = unprefixedTopic(this.o.prefix, topic);
    const subscription = this.o.subscriptions.get(contractTopic);
    if (!subscription || messages.length < 2) return { kind: 'single' };
    const items: Array<{ message: KafkaMessage; event?: DomainEvent }> = [];
    let company: string | undefined;
    for (const message of messages) {
      const checked = validateEnvelope(message.value, { topic: contractTopic, data: this.o.options.validateData });
      if (!checked.valid) break;
      const wanted = !subscription.eventTypes || subscription.eventTypes.includes(checked.event.type);
      // A transaction works for one company (under the tenant wall): the group ends where the
      // next company's events begin.
      if (wanted && company !== undefined && checked.event.companyId !== company) break;
      if (wanted) company = checked.event.companyId;
      items.push({ message, event: wanted ? checked.event : undefined });
    }
    if (items.length < 2) return { kind: 'single' };
    let failure: { index: number; error: unknown } | undefined;
    let handled = 0;
    let duplicates = 0;
    try {
      await runAsCompany(company ?? '', () => this.o.options.dataSource.transaction(async (manager) => {
        const wanted = items.flatMap(({ message, event }) => (event ? [{ event, offset: message.offset }] : []));
        const fresh = new Set(
          wanted.length === 0
            ? []
            : (
                await queryRows<{ event_id: string }>(
                  manager,
                  `INSERT INTO processed_events (consumer_group, event_id, event_type, topic, partition, "offset")
                   SELECT $1, e.id, e.type, $2, $3, e.off FROM unnest($4::uuid[], $5::text[], $6::bigint[]) AS e (id, type, off)
                   ON CONFLICT DO NOTHING RETURNING event_id::text`,
                  [this.o.options.groupId, contractTopic, partition, wanted.map((w) => w.event.id), wanted.map((w) => w.event.type), wanted.map((w) => w.offset)],
                )
              ).map((row) => row.event_id.toLowerCase()),
        );
        for (const [index, { message, event }] of items.entries()) {
          // Not wanted, recorded by an earlier transaction, or a second copy within this group.
          if (!event) continue;
          if (!fresh.delete(event.id.toLowerCase())) {
            duplicates++;
            continue;
          }
          try {
            await traceProcess({ topic, partition, offset: message.offset, groupId: this.o.options.groupId, headers: message.headers }, () =>
              subscription.handler(event, { manager, topic: contractTopic, partition, offset: message.offset, attempt: 1 }),
            );
          } catch (error) {
            failure = { index, error };
            throw error;
          }
          handled++;
        }
      }));
    } catch (error) {
      this.o.state.lastError = errorMessage(error);
      // A handler's own failure is that message's first attempt. Anything else (the database
      // unreachable, a failed commit) is no message's fault: they go one by one, where the
      // database is waited for.
      if (failure && !isTransientConnectionError(failure.error)) return { kind: 'failed', index: failure.index, error: failure.error };
      return { kind: 'single' };
    }
    this.o.state.handled += handled;
    this.o.state.duplicates += duplicates;
    return { kind: 'done', count: items.length };
  }

  /**
   * Handles one message to a final outcome (done, duplicate, skipped or dead-lettered) or throws.
   * `firstFailure`: the handler already failed once for it inside a group; that counts as attempt 1.
   */
  async handle(topic: string, partition: number, message: KafkaMessage, firstFailure?: unknown): Promise<void> {
    const contractTopic = unprefixedTopic(this.o.prefix, topic);
    const subscription = this.o.subscriptions.get(contractTopic);
    const where = { topic, partition, offset: message.offset };
    if (!subscription) {
      await this.deadLetter(message, where, `no handler for topic ${contractTopic} in this group`, 0);
      return;
    }
    const checked = validateEnvelope(message.value, { topic: contractTopic, data: this.o.options.validateData });
    if (!checked.valid) {
      await this.deadLetter(message, where, `invalid event: ${checked.problems.join('; ')}`, 0);
      return;
    }
    const event = checked.event;
    if (subscription.eventTypes && !subscription.eventTypes.includes(event.type)) return;
    if (firstFailure !== undefined) {
      this.o.state.lastError = errorMessage(firstFailure);
      if ((await this.afterFailedAttempt(message, where, event, 1, firstFailure)) === 'parked') return;
    }

    for (let attempt = firstFailure === undefined ? 1 : 2, databaseWaits = 0; ; attempt++) {
      if (this.o.isStopping()) throw new StoppingError();
      try {
        // In the event's company scope: a service with a tenant wall handles it behind the wall.
        const outcome = await runAsCompany(event.companyId, () => this.o.options.dataSource.transaction(async (manager) => {
          const recorded = await queryRows(
            manager,
            `INSERT INTO processed_events (consumer_group, event_id, event_type, topic, partition, "offset")
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1 AS recorded`,
            [this.o.options.groupId, event.id, event.type, contractTopic, partition, message.offset],
          );
          if (recorded.length === 0) return 'duplicate' as const;
          await subscription.handler(event, { manager, topic: contractTopic, partition, offset: message.offset, attempt });
          return 'handled' as const;
        }));
        if (outcome === 'duplicate') {
          this.o.state.duplicates++;
          this.o.logger.debug(`consumer ${this.o.options.groupId}: ${event.type} ${event.id} was handled before; skipped`);
        } else {
          this.o.state.handled++;
        }
        return;
      } catch (error) {
        this.o.state.lastError = errorMessage(error);
        // An unreachable database is not the message's fault: wait for it (the partition waits, so
        // order holds) without spending the message's attempts, or every event in flight during an
        // outage of more than a few seconds would be dead-lettered.
        if (isTransientConnectionError(error)) {
          databaseWaits++;
          if (databaseWaits === 1) this.o.logger.warn(`consumer ${this.o.options.groupId}: database unavailable (${this.o.state.lastError}); waiting for it`);
          attempt--;
          await sleep(backoffDelay(databaseWaits, this.o.options.retry ?? CONSUMER_DEFAULTS.retry), this.o.signal());
          continue;
        }
        if ((await this.afterFailedAttempt(message, where, event, attempt, error)) === 'parked') return;
      }
    }
  }

  /**
   * After the handler failed with `error`: dead-letter at the last attempt, or at once when the
   * event itself is invalid (no retry can fix it); else pause before the next attempt.
   */
  private async afterFailedAttempt(
    message: KafkaMessage,
    where: { topic: string; partition: number; offset: string },
    event: DomainEvent,
    attempt: number,
    error: unknown,
  ): Promise<'parked' | 'retry'> {
    if (error instanceof InvalidEventPayloadError) {
      await this.deadLetter(message, where, error.message, attempt);
      return 'parked';
    }
    const maxAttempts = this.o.options.maxAttempts ?? CONSUMER_DEFAULTS.maxAttempts;
    if (attempt >= maxAttempts) {
      await this.deadLetter(message, where, `handler failed ${attempt} time(s): ${this.o.state.lastError}`, attempt);
      return 'parked';
    }
    const delay = backoffDelay(attempt, this.o.options.retry ?? CONSUMER_DEFAULTS.retry);
    this.o.logger.warn(
      `consumer ${this.o.options.groupId}: ${event.type} ${event.id} failed (attempt ${attempt}/${maxAttempts}): ${this.o.state.lastError}; retrying in ${delay} ms`,
    );
    await sleep(delay, this.o.signal());
    return 'retry';
  }

  private async deadLetter(
    message: KafkaMessage,
    where: { topic: string; partition: number; offset: string },
    reason: string,
    attempts: number,
  ): Promise<void> {
    const topic = (this.o.options.deadLetterTopic ?? deadLetterTopicOf)(where.topic);
    try {
      await this.o.sink.send({
        topic,
        key: message.key,
        value: message.value,
        headers: deadLetterHeaders(message.headers, {
          reason,
          originalTopic: where.topic,
          originalPartition: where.partition,
          originalOffset: where.offset,
          consumerGroup: this.o.options.groupId,
          attempts,
        }),
      });
    } catch (error) {
      // Not committed: the message is delivered again and parked once the publish works.
      this.o.logger.error(
        `consumer ${this.o.options.groupId}: could not dead-letter ${where.topic}[${where.partition}]@${where.offset} to ${topic}: ${errorMessage(error)}`,
      );
      throw error;
    }
    this.o.state.deadLettered++;
    this.o.logger.error(`consumer ${this.o.options.groupId}: dead-lettered ${where.topic}[${where.partition}]@${where.offset} to ${topic}: ${reason}`);
  }

  async cleanupIfDue(): Promise<void> {
    const retention = this.o.options.processedRetentionMs ?? CONSUMER_DEFAULTS.processedRetentionMs;
    if (retention <= 0 || Date.now() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = Date.now();
    await this.o.options.dataSource
      .query(
        `DELETE FROM processed_events WHERE consumer_group = $1 AND processed_at < now() - make_interval(secs => $2::float8 / 1000)`,
        [this.o.options.groupId, retention],
      )
      .catch((error: unknown) => this.o.logger.warn(`consumer ${this.o.options.groupId}: processed_events clean-up failed: ${errorMessage(error)}`));
  }
}
