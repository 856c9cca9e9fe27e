import type { Consumer } from 'kafkajs';
import { backoffDelay, sleep } from '@erp/database';
import { prefixedTopic } from '../kafka/topic-names';
import { errorMessage, type MessagingLogger, SILENT_LOGGER } from '../logger';
import { offsetsToCarry, seekCarriedOffsets } from './carried-offsets';
import { type DeadLetterSink, KafkaDeadLetterSink } from './dead-letter';
import { CONSUMER_DEFAULTS, type EventConsumerOptions, type EventConsumerStatus, type EventSubscription } from './event-consumer.options';
import { InboxHandler } from './inbox-handler';
import { consumePartitionBatch } from './partition-batch';

export type { EventConsumerOptions, EventConsumerStatus, EventHandlerContext, EventSubscription } from './event-consumer.options';

// Capped at 5 s so a consumer resumes within seconds of Kafka coming back (see the outage case in RELIABILITY.md).
const RESTART_BACKOFF = { initialMs: 1_000, maxMs: 5_000 };
/** How long stop() waits for the message being handled (longer handlers are redelivered). */
const STOP_WAIT_MS = 10_000;

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
  private readonly activeBatches = new Set<Promise<void>>();
  private readonly state: EventConsumerStatus;
  private readonly inbox: InboxHandler;

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
    this.inbox = new InboxHandler({
      options,
      logger: this.logger,
      subscriptions: this.subscriptions,
      sink: this.sink,
      prefix: this.prefix,
      state: this.state,
      isStopping: () => this.stopping,
      signal: () => this.abort.signal,
    });
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
    const topics = [...this.subscriptions.keys()].map((topic) => prefixedTopic(this.prefix, topic));
    // The group on the cluster is prefixed like the topics: two environments sharing a cluster
    // in one group would take each other's partitions and each miss events.
    const kafkaGroupId = prefixedTopic(this.prefix, o.kafkaGroupId ?? o.groupId);
    const carried = o.carryOffsetsFrom
      ? await offsetsToCarry(o.kafka, { from: prefixedTopic(this.prefix, o.carryOffsetsFrom), to: kafkaGroupId, topics })
      : undefined;
    const consumer = o.kafka.consumer({
      groupId: kafkaGroupId,
      sessionTimeout: o.sessionTimeoutMs ?? CONSUMER_DEFAULTS.sessionTimeoutMs,
      heartbeatInterval: o.heartbeatIntervalMs ?? CONSUMER_DEFAULTS.heartbeatIntervalMs,
      rebalanceTimeout: o.rebalanceTimeoutMs ?? CONSUMER_DEFAULTS.rebalanceTimeoutMs,
      maxWaitTimeInMs: o.maxWaitTimeInMs ?? CONSUMER_DEFAULTS.maxWaitTimeInMs,
      retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 8 },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      // Before the first fetch of the new assignment: partitions this group never committed start
      // where the group it was split from had got to.
      if (carried) seekCarriedOffsets(consumer, carried, event.payload.memberAssignment);
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
    await consumer.subscribe({ topics, fromBeginning: o.fromBeginning ?? true });
    await consumer.run({
      autoCommit: false,
      // Offsets advance only past messages handled to the end (see onBatch).
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: o.partitionsConsumedConcurrently ?? 1,
      eachBatch: (payload) =>
        this.track(
          consumePartitionBatch(payload, {
            options: o,
            inbox: { handler: this.inbox, isStopping: () => this.stopping },
            commitOffsets: async (offsets) => void (await this.consumer?.commitOffsets(offsets)),
          }),
        ),
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
}
