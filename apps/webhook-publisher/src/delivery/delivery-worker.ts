import type { ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { BackgroundLoop, type StepOutcome } from '@erp/database';
import { type ServiceLogger, SILENT_LOGGER } from '@erp/observability';
import { DELIVERIES_CHANNEL } from '../events/event-intake';
import { judgeAttempt, webhookAttempts } from './delivery-outcome';
import { type ClaimedDelivery, DeliveryRepository } from './delivery.repository';
import type { RetryPolicy } from './retry-schedule';
import { messageOf, WebhookSender } from './webhook-sender';

export interface DeliveryWorkerOptions {
  dataSource: DataSource;
  retry: RetryPolicy;
  /** Whole-request timeout of one attempt. */
  timeoutMs: number;
  /** Attempts in flight at once. */
  concurrency: number;
  /** Poll for due rows this often when nothing woke the worker. */
  pollIntervalMs: number;
  /** A claimed row stays invisible to other workers this long (then it is due again). */
  leaseMs: number;
  /** Disable a subscription that failed without a success this long. */
  disableAfterFailingMs: number;
  /** Connect to private/loopback/link-local addresses (embedded default and tests only). */
  allowPrivateTargets: boolean;
  /**
   * Events (with their deliveries and attempts) older than this are deleted once none of their
   * deliveries is pending; 0 keeps everything. It bounds how far back a replay reaches.
   */
  eventRetentionMs?: number;
  /** pg settings of a session used only to LISTEN for new deliveries; polling alone without it. */
  listenSession?: ClientConfig;
  logger?: ServiceLogger;
}

const CLEANUP_INTERVAL_MS = 10 * 60_000;
const CLEANUP_BATCH = 5_000;

/**
 * The delivery worker, a `BackgroundLoop` (@erp/database): woken by the intake's NOTIFY, by a
 * finished attempt and by the poll; backs off while claiming fails. It claims due deliveries with `FOR UPDATE SKIP LOCKED` (so any
 * number of workers, in any number of processes, share the work without sending a row twice at
 * once), pushes the claim forward by a lease, POSTs (webhook-sender.ts), judges the answer
 * (delivery-outcome.ts) and records the outcome and the attempt in one statement
 * (delivery.repository.ts). A crash between claim and record leaves the row pending: it is due
 * again when the lease ends, so nothing is lost (at-least-once).
 *
 * Per-aggregate order: a row is claimable only when no earlier row (by event arrival) of the
 * same subscription and ordering key is still pending, i.e. the earlier one is delivered or
 * failed for good.
 */
export class DeliveryWorker {
  private readonly o: DeliveryWorkerOptions;
  private readonly logger: ServiceLogger;
  private readonly deliveries: DeliveryRepository;
  private readonly sender: WebhookSender;
  private readonly loop: BackgroundLoop;
  private readonly inFlight = new Set<Promise<void>>();
  private lastCleanup = Date.now();

  constructor(options: DeliveryWorkerOptions) {
    this.o = options;
    this.logger = options.logger ?? SILENT_LOGGER;
    this.deliveries = new DeliveryRepository(options.dataSource);
    this.sender = new WebhookSender(options);
    this.loop = new BackgroundLoop({
      name: 'webhook worker',
      logger: this.logger,
      step: () => this.claimDue(),
      pollIntervalMs: options.pollIntervalMs,
      // The intake NOTIFYs at commit; the session is only a wake-up, so without it the worker polls.
      listen: options.listenSession ? { channel: DELIVERIES_CHANNEL, connection: options.listenSession } : undefined,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    await this.sender.close();
  }

  /** Looks for due rows now (new deliveries were added). */
  wake(): void {
    this.loop.wake();
  }

  /** Claims as many due rows as there are free slots and starts their attempts (not awaited). */
  private async claimDue(): Promise<StepOutcome> {
    const free = this.o.concurrency - this.inFlight.size;
    const claimed = free > 0 ? await this.deliveries.claim(free, this.o.leaseMs) : [];
    for (const row of claimed) this.track(row);
    // Every slot filled: there may be more due rows, and a finished attempt wakes the loop anyway.
    if (claimed.length > 0 && claimed.length === free) return 'more';
    if (Date.now() - this.lastCleanup >= CLEANUP_INTERVAL_MS) {
      this.lastCleanup = Date.now();
      await this.cleanup().catch((error: unknown) => this.logger.warn(`webhook worker: clean-up failed: ${messageOf(error)}`));
    }
    return 'idle';
  }

  /** Runs one attempt in the background; its end frees a slot, so the loop looks again. */
  private track(row: ClaimedDelivery): void {
    const task: Promise<void> = this.attempt(row)
      .catch((error: unknown) => this.logger.error(`webhook worker: delivery ${row.id} not recorded: ${messageOf(error)}`))
      .finally(() => {
        this.inFlight.delete(task);
        this.wake();
      });
    this.inFlight.add(task);
  }

  /** POSTs, judges the answer and records the attempt; a crash before the record leaves the row to its lease. */
  private async attempt(row: ClaimedDelivery): Promise<void> {
    const attempt = judgeAttempt(row.attempts, await this.sender.send(row), this.o.retry);
    await this.deliveries.record(row, attempt, this.o.disableAfterFailingMs);
    webhookAttempts.inc({ outcome: attempt.outcome });
    if (attempt.outcome === 'gone') this.logger.warn(`webhook subscription ${row.subscription_id} disabled: its endpoint answered 410`);
  }

  /**
   * Deletes events past the retention period that have no pending delivery (their deliveries and
   * attempts go with them), in batches. Returns how many events were deleted.
   */
  async cleanup(): Promise<number> {
    const retention = this.o.eventRetentionMs ?? 0;
    if (retention <= 0) return 0;
    let deleted = 0;
    for (;;) {
      const count = await this.deliveries.deleteExpiredEvents(retention, CLEANUP_BATCH);
      deleted += count;
      if (count < CLEANUP_BATCH || !this.loop.running) return deleted;
    }
  }
}
