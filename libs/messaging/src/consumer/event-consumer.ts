import { type DomainEvent, type EventType, validateEnvelope } from '@erp/contracts';
import { isTransientConnectionError } from '@erp/errors';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { DataSource, EntityManager } from 'typeorm';
import { backoffDelay, type BackoffOptions, queryRows, runAsCompany, sleep } from '@erp/database';
import { deadLetterTopicOf, prefixedTopic, unprefixedTopic } from '../kafka/topic-names';
import { errorMessage, type MessagingLogger, SILENT_LOGGER } from '../logger';
import { deadLetterHeaders, type DeadLetterSink, KafkaDeadLetterSink } from './dead-letter';
import { InvalidEventPayloadError } from './invalid-event-payload.error';
import { consumerLag } from '../metrics/messaging-metrics';
import { traceProcess } from '../tracing/message-tracing';

export interface EventHandlerContext {
  /**
   * The transaction that also records the event as processed. Do every database write of the
   * handler through it: the writes and the record then commit (or roll back) together.
   */
  manager: EntityManager;
  /** The topic as the contracts name it (without a deployment prefix). */
  topic: string;
  partition: number;
  offset: string;
  /** 1 on the first try, 2 on the first retry, ... */
  attempt: number;
}

export interface EventSubscription<T extends EventType = EventType> {
  /** The topic as the contracts name it, e.g. `TOPICS.customers`. */
  topic: string;
  /** Called once per event; throw to have it retried (then dead-lettered). */
  handler(event: DomainEvent<T>, context: EventHandlerContext): Promise<void>;
  /**
   * The event types this handler wants. Others on the topic are acknowledged without calling it
   * (and without a processed_events row). Default: every type of the topic.
   */
  eventTypes?: readonly T[];
}

export interface EventConsumerOptions {
  kafka: Kafka;
  /** The service's DataSource: handler transactions and the processed_events table. */
  dataSource: DataSource;
  /** The consumer group, e.g. `sales-orders-v3.customer-snapshot`. */
  groupId: string;
  subscriptions: EventSubscription[];
  /**
   * Deployment prefix (`KAFKA_TOPIC_PREFIX`) of the topics and of the group name joined on the
   * cluster, so environments sharing a cluster never share a group. The inbox, metrics and logs
   * use `groupId` as given. Default none.
   */
  topicPrefix?: string;
  logger?: MessagingLogger;
  /** Handler attempts before the message is dead-lettered. Default 5. Failures because the database is unreachable do not count. */
  maxAttempts?: number;
  /** Pause between attempts. Default 200 ms doubling to 5 s (about 3 s for 5 attempts). */
  retry?: BackoffOptions;
  /** Where parked messages go. Default: `<topic>.dlq` on the same cluster. */
  deadLetterSink?: DeadLetterSink;
  /** Maps a (prefixed) source topic to its dead-letter topic. Default `<topic>.dlq`. */
  deadLetterTopic?: (topic: string) => string;
  /** Where a new group starts: true (default) reads the topic's whole retained history. */
  fromBeginning?: boolean;
  /** kafkajs group timings; see the kafkajs docs. Defaults 30 s / 3 s / 60 s. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  rebalanceTimeoutMs?: number;
  /** Longest a fetch waits for new messages. Default 1000 ms (kafkajs: 5 s). */
  maxWaitTimeInMs?: number;
  /** Partitions handled in parallel (order holds within each). Default 1. */
  partitionsConsumedConcurrently?: number;
  /**
   * Consecutive messages of a partition handled in ONE transaction (their processed_events
   * records, every handler's writes, one commit). Default 100; 1 = one transaction per message.
   */
  transactionBatchSize?: number;
  /** processed_events rows of this group older than this are deleted. Default 30 days; 0 keeps them. */
  processedRetentionMs?: number;
  /**
   * Check each event's `data` against its contract before the handler (default true). The Nest
   * transport turns it off: there the handler's `@Payload()` DTO is validated by a pipe, and an
   * `InvalidEventPayloadError` it throws dead-letters the message the same way.
   */
  validateData?: boolean;
}

export interface EventConsumerStatus {
  groupId: string;
  /** Running and a member of its group. */
  joined: boolean;
  handled: number;
  duplicates: number;
  deadLettered: number;
  lastError?: string;
}

const DEFAULTS = {
  maxAttempts: 5,
  retry: { initialMs: 200, maxMs: 5_000 },
  sessionTimeoutMs: 30_000,
  heartbeatIntervalMs: 3_000,
  rebalanceTimeoutMs: 60_000,
  maxWaitTimeInMs: 1_000,
  transactionBatchSize: 100,
  processedRetentionMs: 30 * 24 * 3_600_000,
};
// Capped at 5 s so a consumer resumes within seconds of Kafka coming back (see the outage case in RELIABILITY.md).
const RESTART_BACKOFF = { initialMs: 1_000, maxMs: 5_000 };
const CLEANUP_INTERVAL_MS = 60 * 60_000;
const COMMIT_INTERVAL_MS = 500;
/** How long stop() waits for the message being handled (longer handlers are redelivered). */
const STOP_WAIT_MS = 10_000;

/** What `handleGroup` did with the messages it was given. */
type GroupOutcome =
  /** The first `count` messages are handled for good (committed in one transaction). */
  | { kind: 'done'; count: number }
  /** The handler threw for message `index`; the transaction rolled back, so nothing is handled. */
  | { kind: 'failed'; index: number; error: unknown }
  /** Not a case for a group: the first message goes on its own (see `handle`). */
  | { kind: 'single' };

/** Thrown out of kafkajs's message callback so the message is neither resolved nor committed. */
class StoppingError extends Error {
  constructor() {
    super('consumer is stopping; the message will be delivered again');
    this.name = 'StoppingError';
  }
}

/**
 * One consumer group's kafkajs consumer, with the rules every consumer in the system keeps:
 *
 * - The envelope is validated against the contracts; an invalid message is dead-lettered with
 *   the problems as its reason.
 * - The handler runs in ONE database transaction that first records (group, event id) in
 *   processed_events: a redelivered event finds its row and is skipped, so effects happen once.
 *   Consecutive messages of a partition share that transaction (`transactionBatchSize`); a
 *   handler failure rolls the group back and the failing message is then handled alone.
 * - The offset is committed only after that transaction committed (autoCommit is off), so a
 *   crash in between redelivers the message, which the record then turns into a no-op.
 * - A handler that throws is retried with backoff (the partition waits, which keeps per-key
 *   order), then the message goes to the dead-letter topic with the reason, original
 *   topic/partition/offset and group in headers, and only then is the offset committed. If the
 *   dead-letter publish fails nothing is committed and the message comes back.
 * - The heartbeat is kept alive while a handler (or a retry pause) runs.
 */
export class EventConsumer {
  private readonly options: EventConsumerOptions;
  private readonly logger: MessagingLogger;
  private readonly subscriptions = new Map<string, EventSubscription>();
  private readonly sink: DeadLetterSink;
  private readonly prefix: string;
  private consumer?: Consumer;
  private supervisor?: Promise<void>;
  private abort = new AbortController();
  private stopping = false;
  private joinedOnce?: () => void;
  private readonly joined: Promise<void>;
  private lastCleanup = 0;
  private readonly activeBatches = new Set<Promise<void>>();
  private readonly state: EventConsumerStatus;

  constructor(options: EventConsumerOptions) {
    this.options = options;
    this.logger = options.logger ?? SILENT_LOGGER;
    this.prefix = options.topicPrefix ?? '';
    this.sink = options.deadLetterSink ?? new KafkaDeadLetterSink(options.kafka);
    for (const subscription of options.subscriptions) {
      if (this.subscriptions.has(subscription.topic)) {
        throw new Error(`Consumer group ${options.groupId} subscribes to ${subscription.topic} twice`);
      }
      this.subscriptions.set(subscription.topic, subscription);
    }
    this.state = { groupId: options.groupId, joined: false, handled: 0, duplicates: 0, deadLettered: 0 };
    this.joined = new Promise((resolve) => (this.joinedOnce = resolve));
  }

  get groupId(): string {
    return this.options.groupId;
  }

  /**
   * Starts consuming in the background. Connection failures (Kafka down at start) and consumer
   * crashes are retried with backoff until `stop()`.
   */
  start(): void {
    if (this.supervisor) return;
    this.stopping = false;
    this.abort = new AbortController();
    this.supervisor = this.supervise();
  }

  /** Resolves once the consumer has joined its group the first time (tests and start-up logs). */
  ready(): Promise<void> {
    return this.joined;
  }

  /**
   * Leaves the group. A message being handled finishes first (its transaction and commit); one
   * waiting between attempts is left uncommitted and is handled again by the next owner.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await this.supervisor;
    this.supervisor = undefined;
    // Batches end after their current message once `stopping` is set; let them commit what they
    // handled while the consumer still runs (kafkajs drops commits made during its shutdown).
    // The bound's timer is cancelled once the batches end: left running, it would keep a stopped
    // process alive for up to STOP_WAIT_MS.
    const batchesEnded = new AbortController();
    await Promise.race([Promise.allSettled([...this.activeBatches]), sleep(STOP_WAIT_MS, batchesEnded.signal)]);
    batchesEnded.abort();
    await this.consumer?.disconnect().catch((error: unknown) =>
      this.logger.warn(`consumer ${this.groupId}: disconnect failed: ${errorMessage(error)}`),
    );
    this.consumer = undefined;
    this.state.joined = false;
    await this.sink.close();
  }

  status(): EventConsumerStatus {
    return { ...this.state };
  }

  /** Keeps (re)starting the kafkajs consumer until it runs, with backoff. */
  private async supervise(): Promise<void> {
    for (let failures = 0; !this.stopping; ) {
      try {
        await this.run();
        return;
      } catch (error) {
        failures++;
        this.state.lastError = errorMessage(error);
        const delay = backoffDelay(failures, RESTART_BACKOFF);
        this.logger.warn(`consumer ${this.groupId}: could not start (${this.state.lastError}); retrying in ${delay} ms`);
        await this.consumer?.disconnect().catch(() => undefined);
        this.consumer = undefined;
        await sleep(delay, this.abort.signal);
      }
    }
  }

  private async run(): Promise<void> {
    const o = this.options;
    const consumer = o.kafka.consumer({
      // The group on the cluster is prefixed like the topics: two environments sharing a cluster
      // in one group would take each other's partitions and each miss events.
      groupId: prefixedTopic(this.prefix, o.groupId),
      sessionTimeout: o.sessionTimeoutMs ?? DEFAULTS.sessionTimeoutMs,
      heartbeatInterval: o.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs,
      rebalanceTimeout: o.rebalanceTimeoutMs ?? DEFAULTS.rebalanceTimeoutMs,
      maxWaitTimeInMs: o.maxWaitTimeInMs ?? DEFAULTS.maxWaitTimeInMs,
      retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 8 },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.state.joined = true;
      this.joinedOnce?.();
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.state.joined = false;
      this.state.lastError = errorMessage(event.payload.error);
      this.logger.error(`consumer ${this.groupId}: crashed: ${this.state.lastError}`);
      // kafkajs restarts by itself after retriable errors; after any other, start over here.
      if (!event.payload.restart && !this.stopping) void this.restart(consumer);
    });
    await consumer.connect();
    await consumer.subscribe({
      topics: [...this.subscriptions.keys()].map((topic) => prefixedTopic(this.prefix, topic)),
      fromBeginning: o.fromBeginning ?? true,
    });
    await consumer.run({
      autoCommit: false,
      // Offsets advance only past messages handled to the end (see onBatch).
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: o.partitionsConsumedConcurrently ?? 1,
      eachBatch: (payload) => this.track(this.onBatch(payload)),
    });
    this.logger.log(`consumer ${this.groupId}: consuming ${[...this.subscriptions.keys()].join(', ')}`);
  }

  private async restart(crashed: Consumer): Promise<void> {
    if (this.consumer !== crashed) return;
    await crashed.disconnect().catch(() => undefined);
    this.consumer = undefined;
    await sleep(RESTART_BACKOFF.initialMs, this.abort.signal);
    if (this.stopping) return;
    this.supervisor = this.supervise();
  }

  private async track(batch: Promise<void>): Promise<void> {
    this.activeBatches.add(batch);
    try {
      await batch;
    } finally {
      this.activeBatches.delete(batch);
    }
  }

  /**
   * Handles a fetched batch of one partition in order. Each message (or group of messages, see
   * handleGroup) is handled to a final outcome (its transaction committed, or parked) before the
   * next; offsets are committed for handled
   * messages only, after their transactions, every COMMIT_INTERVAL_MS and at the end of the batch
   * (one commit round trip per message would halve throughput; a crash in between only means a
   * few redeliveries, which processed_events turns into no-ops). A message that cannot reach a
   * final outcome stops the batch: what was handled before it is committed, and kafkajs delivers
   * it again.
   */
  private async onBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    let handled: string | undefined;
    let committed: string | undefined;
    let lastCommit = Date.now();
    const commit = async () => {
      if (handled === undefined || handled === committed) return;
      const offset = handled;
      await this.consumer?.commitOffsets([{ topic, partition, offset: (BigInt(offset) + 1n).toString() }]);
      committed = offset;
      lastCommit = Date.now();
    };
    const keepAlive = setInterval(
      () => void heartbeat().catch(() => undefined),
      Math.max(100, Math.floor((this.options.heartbeatIntervalMs ?? DEFAULTS.heartbeatIntervalMs) / 2)),
    );
    // What is left of the partition as of this fetch: the high watermark minus the next offset.
    const reportLag = (nextOffset: bigint) => {
      const lag = BigInt(batch.highWatermark) - nextOffset;
      consumerLag.set({ group: this.groupId, topic, partition: String(partition) }, Number(lag > 0n ? lag : 0n));
    };
    const finished = (message: KafkaMessage) => {
      resolveOffset(message.offset);
      handled = message.offset;
      reportLag(BigInt(message.offset) + 1n);
    };
    const groupSize = Math.max(1, this.options.transactionBatchSize ?? DEFAULTS.transactionBatchSize);
    const messages = batch.messages;
    // Shown while the first group is still in its transaction (nothing of it is handled yet).
    if (messages.length > 0) reportLag(BigInt(messages[0].offset));
    // Messages go in groups, one transaction each (a round trip and a commit per message were
    // what bounded throughput). When a handler throws inside a group, the group rolls back; the
    // messages before the failing one are done again as a group, and the failing one goes on its
    // own with that failure counted as its first attempt, so it is retried and dead-lettered
    // exactly as if it had always been alone, and never holds back the others' effects.
    let limit = groupSize;
    let earlier: { offset: string; error: unknown } | undefined;
    try {
      for (let i = 0; i < messages.length; ) {
        // Stopping, or the partition went to another member in a rebalance: leave the rest.
        if (this.stopping || !isRunning() || isStale()) break;
        const alone = earlier?.offset === messages[i].offset;
        const outcome: GroupOutcome = alone ? { kind: 'single' } : await this.handleGroup(topic, partition, messages.slice(i, i + limit));
        limit = groupSize;
        if (outcome.kind === 'done') {
          for (const message of messages.slice(i, i + outcome.count)) finished(message);
          i += outcome.count;
        } else if (outcome.kind === 'failed' && outcome.index > 0) {
          earlier = { offset: messages[i + outcome.index].offset, error: outcome.error };
          limit = outcome.index;
          continue;
        } else {
          const message = messages[i];
          const firstFailure = outcome.kind === 'failed' ? outcome.error : alone ? earlier?.error : undefined;
          earlier = undefined;
          // One "process" span per message when tracing is on, continuing the producer's trace.
          await traceProcess({ topic, partition, offset: message.offset, groupId: this.groupId, headers: message.headers }, () =>
            this.handle(topic, partition, message, firstFailure),
          );
          finished(message);
          i++;
        }
        if (Date.now() - lastCommit >= COMMIT_INTERVAL_MS) await commit();
      }
    } finally {
      clearInterval(keepAlive);
      await commit();
    }
    await this.cleanupIfDue();
  }

  /**
   * Handles consecutive messages (at least two, in partition order) in ONE transaction: records
   * the wanted events in processed_events with one statement (a redelivered event finds its row
   * and is a duplicate), calls each handler for the newly recorded ones in order on that
   * transaction, and commits once. The group ends before the first message that must be
   * dead-lettered without a handler (no subscription, invalid envelope): `handle` parks it alone.
   */
  private async handleGroup(topic: string, partition: number, messages: KafkaMessage[]): Promise<GroupOutcome> {
    const contractTopic = unprefixedTopic(this.prefix, topic);
    const subscription = this.subscriptions.get(contractTopic);
    if (!subscription || messages.length < 2) return { kind: 'single' };
    const items: Array<{ message: KafkaMessage; event?: DomainEvent }> = [];
    let company: string | undefined;
    for (const message of messages) {
      const checked = validateEnvelope(message.value, { topic: contractTopic, data: this.options.validateData });
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
      await runAsCompany(company ?? '', () => this.options.dataSource.transaction(async (manager) => {
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
                  [this.groupId, contractTopic, partition, wanted.map((w) => w.event.id), wanted.map((w) => w.event.type), wanted.map((w) => w.offset)],
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
            await traceProcess({ topic, partition, offset: message.offset, groupId: this.groupId, headers: message.headers }, () =>
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
      this.state.lastError = errorMessage(error);
      // A handler's own failure is that message's first attempt. Anything else (the database
      // unreachable, a failed commit) is no message's fault: they go one by one, where the
      // database is waited for.
      if (failure && !isTransientConnectionError(failure.error)) return { kind: 'failed', index: failure.index, error: failure.error };
      return { kind: 'single' };
    }
    this.state.handled += handled;
    this.state.duplicates += duplicates;
    return { kind: 'done', count: items.length };
  }

  /**
   * Handles one message to a final outcome (done, duplicate, skipped or dead-lettered) or throws.
   * `firstFailure`: the handler already failed once for it inside a group; that counts as attempt 1.
   */
  private async handle(topic: string, partition: number, message: KafkaMessage, firstFailure?: unknown): Promise<void> {
    const contractTopic = unprefixedTopic(this.prefix, topic);
    const subscription = this.subscriptions.get(contractTopic);
    const where = { topic, partition, offset: message.offset };
    if (!subscription) {
      await this.deadLetter(message, where, `no handler for topic ${contractTopic} in this group`, 0);
      return;
    }
    const checked = validateEnvelope(message.value, { topic: contractTopic, data: this.options.validateData });
    if (!checked.valid) {
      await this.deadLetter(message, where, `invalid event: ${checked.problems.join('; ')}`, 0);
      return;
    }
    const event = checked.event;
    if (subscription.eventTypes && !subscription.eventTypes.includes(event.type)) return;
    if (firstFailure !== undefined) {
      this.state.lastError = errorMessage(firstFailure);
      if ((await this.afterFailedAttempt(message, where, event, 1, firstFailure)) === 'parked') return;
    }

    for (let attempt = firstFailure === undefined ? 1 : 2, databaseWaits = 0; ; attempt++) {
      if (this.stopping) throw new StoppingError();
      try {
        // In the event's company scope: a service with a tenant wall handles it behind the wall.
        const outcome = await runAsCompany(event.companyId, () => this.options.dataSource.transaction(async (manager) => {
          const recorded = await queryRows(
            manager,
            `INSERT INTO processed_events (consumer_group, event_id, event_type, topic, partition, "offset")
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING 1 AS recorded`,
            [this.groupId, event.id, event.type, contractTopic, partition, message.offset],
          );
          if (recorded.length === 0) return 'duplicate' as const;
          await subscription.handler(event, { manager, topic: contractTopic, partition, offset: message.offset, attempt });
          return 'handled' as const;
        }));
        if (outcome === 'duplicate') {
          this.state.duplicates++;
          this.logger.debug(`consumer ${this.groupId}: ${event.type} ${event.id} was handled before; skipped`);
        } else {
          this.state.handled++;
        }
        return;
      } catch (error) {
        this.state.lastError = errorMessage(error);
        // An unreachable database is not the message's fault: wait for it (the partition waits, so
        // order holds) without spending the message's attempts, or every event in flight during an
        // outage of more than a few seconds would be dead-lettered.
        if (isTransientConnectionError(error)) {
          databaseWaits++;
          if (databaseWaits === 1) this.logger.warn(`consumer ${this.groupId}: database unavailable (${this.state.lastError}); waiting for it`);
          attempt--;
          await sleep(backoffDelay(databaseWaits, this.options.retry ?? DEFAULTS.retry), this.abort.signal);
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
    const maxAttempts = this.options.maxAttempts ?? DEFAULTS.maxAttempts;
    if (attempt >= maxAttempts) {
      await this.deadLetter(message, where, `handler failed ${attempt} time(s): ${this.state.lastError}`, attempt);
      return 'parked';
    }
    const delay = backoffDelay(attempt, this.options.retry ?? DEFAULTS.retry);
    this.logger.warn(
      `consumer ${this.groupId}: ${event.type} ${event.id} failed (attempt ${attempt}/${maxAttempts}): ${this.state.lastError}; retrying in ${delay} ms`,
    );
    await sleep(delay, this.abort.signal);
    return 'retry';
  }

  private async deadLetter(
    message: KafkaMessage,
    where: { topic: string; partition: number; offset: string },
    reason: string,
    attempts: number,
  ): Promise<void> {
    const topic = (this.options.deadLetterTopic ?? deadLetterTopicOf)(where.topic);
    try {
      await this.sink.send({
        topic,
        key: message.key,
        value: message.value,
        headers: deadLetterHeaders(message.headers, {
          reason,
          originalTopic: where.topic,
          originalPartition: where.partition,
          originalOffset: where.offset,
          consumerGroup: this.groupId,
          attempts,
        }),
      });
    } catch (error) {
      // Not committed: the message is delivered again and parked once the publish works.
      this.logger.error(
        `consumer ${this.groupId}: could not dead-letter ${where.topic}[${where.partition}]@${where.offset} to ${topic}: ${errorMessage(error)}`,
      );
      throw error;
    }
    this.state.deadLettered++;
    this.logger.error(`consumer ${this.groupId}: dead-lettered ${where.topic}[${where.partition}]@${where.offset} to ${topic}: ${reason}`);
  }

  private async cleanupIfDue(): Promise<void> {
    const retention = this.options.processedRetentionMs ?? DEFAULTS.processedRetentionMs;
    if (retention <= 0 || Date.now() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = Date.now();
    await this.options.dataSource
      .query(
        `DELETE FROM processed_events WHERE consumer_group = $1 AND processed_at < now() - make_interval(secs => $2::float8 / 1000)`,
        [this.groupId, retention],
      )
      .catch((error: unknown) => this.logger.warn(`consumer ${this.groupId}: processed_events clean-up failed: ${errorMessage(error)}`));
  }
}
