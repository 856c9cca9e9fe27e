import { Client, type ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { DELIVERIES_CHANNEL } from '../events/event-intake';
import { judgeAttempt, webhookAttempts } from './delivery-outcome';
import { type ClaimedDelivery, DeliveryRepository } from './delivery.repository';
import type { RetryPolicy } from './retry-schedule';
import { messageOf, WebhookSender } from './webhook-sender';

export interface DeliveryLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

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
  logger?: DeliveryLogger;
}

const CLEANUP_INTERVAL_MS = 10 * 60_000;
const CLEANUP_BATCH = 5_000;
const SILENT: DeliveryLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The delivery worker: the loop. It claims due deliveries with `FOR UPDATE SKIP LOCKED` (so any
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
  private readonly logger: DeliveryLogger;
  private readonly deliveries: DeliveryRepository;
  private readonly sender: WebhookSender;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loopDone?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;
  private listener?: Client;
  private lastCleanup = Date.now();

  constructor(options: DeliveryWorkerOptions) {
    this.o = options;
    this.logger = options.logger ?? SILENT;
    this.deliveries = new DeliveryRepository(options.dataSource);
    this.sender = new WebhookSender(options);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.sender.close();
  }

  /** Looks for due rows now (new deliveries were added). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const free = this.o.concurrency - this.inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      if (free > 0) {
        try {
          claimed = await this.deliveries.claim(free, this.o.leaseMs);
        } catch (error) {
          this.logger.warn(`webhook worker: claiming failed: ${messageOf(error)}`);
        }
      }
      for (const row of claimed) {
        const task: Promise<void> = this.attempt(row)
          .catch((error: unknown) => this.logger.error(`webhook worker: delivery ${row.id} not recorded: ${messageOf(error)}`))
          .finally(() => {
            this.inFlight.delete(task);
            this.wake();
          });
        this.inFlight.add(task);
      }
      if (claimed.length > 0 && claimed.length === free) continue;
      if (Date.now() - this.lastCleanup >= CLEANUP_INTERVAL_MS) {
        this.lastCleanup = Date.now();
        await this.cleanup().catch((error: unknown) => this.logger.warn(`webhook worker: clean-up failed: ${messageOf(error)}`));
      }
      await this.idle();
    }
  }

  private idle(): Promise<void> {
    if (this.woken || !this.running) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.o.pollIntervalMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        this.woken = false;
        done();
      };
    });
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
      if (count < CLEANUP_BATCH || !this.running) return deleted;
    }
  }

  /** LISTEN for new deliveries (NOTIFY on commit by the intake); polling covers any gap. */
  private async listen(): Promise<void> {
    if (!this.o.listenSession || !this.running) return;
    const client = new Client(this.o.listenSession);
    client.on('notification', () => this.wake());
    client.on('error', (error) => {
      this.logger.warn(`webhook worker: LISTEN session lost (${messageOf(error)}); polling until it is back`);
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      setTimeout(() => void this.listen(), this.o.pollIntervalMs).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      if (!this.running) {
        await client.end();
        return;
      }
      this.listener = client;
    } catch (error) {
      this.logger.warn(`webhook worker: cannot LISTEN (${messageOf(error)}); polling`);
      await client.end().catch(() => undefined);
    }
  }
}
