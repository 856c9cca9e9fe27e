import type pg from 'pg';
import { BackgroundLoop, type LoopContext, type StepOutcome } from '@erp/database';
import { errorMessage, type ServiceLogger, SILENT_LOGGER } from '@erp/observability';
import { OUTBOX_CHANNEL } from './outbox';
import { type OutboxBacklog, outboxBacklogOn } from './outbox-backlog';
import { publishBatch } from './relay/relay-batch';
import { RelayKafka } from './relay/relay-kafka';
import { relayPool, underRelayLock } from './relay/relay-lock';
import { type OutboxRelayOptions, type OutboxRelayStatus, type RelaySettings, relaySettingsOf } from './relay/relay-options';
import { deleteExpiredRows } from './relay/relay-retention';

export { OUTBOX_RELAY_LOCK_KEY } from './relay/relay-lock';
export type { OutboxRelayOptions, OutboxRelayStatus } from './relay/relay-options';

const CLEANUP_INTERVAL_MS = 10 * 60_000;

/**
 * Publishes outbox rows to Kafka, in sequence order, and marks them published. Its parts:
 * `relay/relay-lock.ts` (each round one transaction under the relay lock, one replica at a time),
 * `relay/relay-batch.ts` (a batch read, sent and marked), `relay/relay-kafka.ts` (the producer,
 * restarted when it keeps failing, and Kafka's health), `relay/relay-retention.ts` (old rows).
 *
 * - Wakes on the NOTIFY that `Outbox.add` queues (delivered at commit), so publish latency is a
 *   few milliseconds, with a slow poll as fallback (a `BackgroundLoop` of @erp/database, whose
 *   session only LISTENs: each round is a transaction on the relay's own connection).
 * - Idempotent producer, acks from all in-sync replicas, one request in flight: a retried send
 *   can neither duplicate nor reorder messages of one partition, and the key
 *   `<companyId>:<aggregateId>` puts each aggregate on one partition.
 * - When Kafka is down, sends fail and are retried with exponential backoff; the rows wait, and
 *   writes to the database keep succeeding. A row is marked only after Kafka acknowledged it, so
 *   a crash in between republishes it (at-least-once; consumers deduplicate on the event id).
 */
export class OutboxRelay {
  private readonly settings: RelaySettings;
  private readonly logger: ServiceLogger;
  private readonly loop: BackgroundLoop;
  private readonly kafka: RelayKafka;
  private pool?: pg.Pool;
  private readonly roles: OutboxRelayOptions['roles'];
  private lastCleanup = 0;
  private readonly state: Omit<OutboxRelayStatus, 'kafkaConnected' | 'kafkaEverConnected'> = { active: false, published: 0, failures: 0 };

  constructor(options: OutboxRelayOptions) {
    this.logger = options.logger ?? SILENT_LOGGER;
    this.settings = relaySettingsOf(options);
    this.roles = options.roles;
    this.kafka = new RelayKafka(options.kafka, this.settings.probeIntervalMs, this.logger);
    this.loop = new BackgroundLoop({
      name: 'outbox relay',
      logger: this.logger,
      step: (context) => this.step(context),
      pollIntervalMs: this.settings.pollIntervalMs,
      retry: this.settings.retry,
      // Only the wake-up needs a session; the work runs in transactions on the pool.
      listen: { channel: OUTBOX_CHANNEL, connection: options.listenSession ?? this.settings.database },
      onError: (error, failures) => this.onFailure(error, failures),
      drain: (context) => this.flush(context),
      stopTimeoutMs: this.settings.shutdownFlushTimeoutMs,
    });
  }

  /** Starts publishing in the background; never throws (failures are retried and reported). */
  start(): void {
    this.pool ??= relayPool(this.settings.database, this.roles);
    this.loop.start();
  }

  /**
   * Stops: lets the current round finish, publishes what is still pending for up to
   * `shutdownFlushTimeoutMs` (rows left over wait for the next start or another replica), then
   * disconnects from Kafka and closes its connection and LISTEN session.
   */
  async stop(): Promise<void> {
    if (!this.loop.running) return;
    // The loop drains (flush) only once its last round has ended, so this replica never runs two
    // rounds at once (the relay lock keeps other replicas' rounds apart).
    await this.loop.stop();
    this.state.active = false;
    await this.kafka.disconnect();
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }

  /** Wakes the relay now (it also wakes on its own for every commit that added an event). */
  wake(): void {
    this.loop.wake();
  }

  status(): OutboxRelayStatus {
    return { ...this.state, kafkaConnected: this.kafka.connected, kafkaEverConnected: this.kafka.everConnected };
  }

  /** The pending rows, for metrics (on the relay's own connection). */
  async backlog(): Promise<OutboxBacklog> {
    return outboxBacklogOn(this.requirePool());
  }

  /** One round: a batch published under the relay lock, or standing by while another replica holds it. */
  private async step(context: LoopContext): Promise<StepOutcome> {
    await this.kafka.ensureProducer();
    const published = await this.publishUnderLock();
    if (published === undefined) {
      // Standing by: keep the readiness view of Kafka current, and try for the lock now and then
      // (not on every commit the active replica publishes).
      await this.kafka.probeIfDue();
      return 'pause';
    }
    if (published === this.settings.batchSize) return 'more';
    await this.cleanupIfDue(context.signal);
    await this.kafka.probeIfDue();
    return 'idle';
  }

  /** At stop, once the last round has ended: publishes what is pending until the stop deadline. */
  private async flush(context: LoopContext): Promise<void> {
    if (!this.kafka.connected) return;
    while (!context.signal.aborted) {
      const published = await this.publishUnderLock();
      // Nothing left, or another replica publishes it.
      if (!published) return;
    }
  }

  private async publishUnderLock(): Promise<number | undefined> {
    const published = await underRelayLock(
      this.requirePool(),
      (locked) => this.setActive(locked),
      (client) => publishBatch(client, this.settings.batchSize, (topicMessages) => this.kafka.sendBatch(topicMessages)),
    );
    if (published) {
      this.state.published += published;
      this.state.lastPublishedAt = new Date();
    }
    return published;
  }

  private setActive(active: boolean): void {
    if (active && !this.state.active) this.logger.log('outbox relay: active (holds the relay lock of this database)');
    this.state.active = active;
  }

  private async onFailure(error: unknown, consecutiveFailures: number): Promise<void> {
    this.state.failures++;
    this.state.lastError = errorMessage(error);
    await this.kafka.afterFailure(error, consecutiveFailures);
  }

  private async cleanupIfDue(signal: AbortSignal): Promise<void> {
    if (!this.pool || this.settings.retentionMs <= 0 || Date.now() - this.lastCleanup < CLEANUP_INTERVAL_MS) return;
    this.lastCleanup = Date.now();
    await deleteExpiredRows(this.pool, this.settings.retentionMs, signal);
  }

  private requirePool(): pg.Pool {
    if (!this.pool) throw new Error('outbox relay: not started');
    return this.pool;
  }
}
