import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client, type ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { Agent, request } from 'undici';
import { queryRows } from '@erp/database';
import { defineCounter } from '@erp/observability';
import { DELIVERIES_CHANNEL } from '../events/event-intake';
import { guardedLookup, isPrivateAddress } from '../targets/target-policy';
import { startDeliverySpan } from './delivery-tracing';
import { nextRetryDelay, parseRetryAfter, type RetryPolicy } from './retry-schedule';
import { signedHeaders } from './signing';

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

export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'gone';

/** Attempts by outcome: delivered (2xx), retry (scheduled again), failed (no retry left), gone (410). */
export const webhookAttempts = defineCounter<'outcome'>({
  name: 'webhook_delivery_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry, failed (no retry left), gone (410, subscription disabled)',
  labelNames: ['outcome'],
});

interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  company_id: string;
  event_id: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_valid: boolean;
  type: string;
  publisher: string;
  occurred_at: string;
  data: object;
  trace_context: unknown;
}

const ERROR_TEXT_MAX = 500;
const CLEANUP_INTERVAL_MS = 10 * 60_000;
const CLEANUP_BATCH = 5_000;
const SILENT: DeliveryLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The delivery worker. It claims due deliveries with `FOR UPDATE SKIP LOCKED` (so any number of
 * workers, in any number of processes, share the work without sending a row twice at once),
 * pushes the claim forward by a lease, POSTs, and records the outcome and the attempt in one
 * transaction. A crash between claim and record leaves the row pending: it is due again when
 * the lease ends, so nothing is lost (at-least-once).
 *
 * Per-aggregate order: a row is claimable only when no earlier row (by event arrival) of the
 * same subscription and ordering key is still pending, i.e. the earlier one is delivered or
 * failed for good.
 */
export class DeliveryWorker {
  private readonly o: DeliveryWorkerOptions;
  private readonly logger: DeliveryLogger;
  private readonly agent: Agent;
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
    // Keep-alive pooling per origin; every new connection resolves the host again and refuses
    // private addresses (DNS rebinding cannot get past the check made at subscription time).
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connections: Math.max(4, options.concurrency),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: options.allowPrivateTargets ? { timeout: options.timeoutMs } : { timeout: options.timeoutMs, lookup: guardedLookup },
    });
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
    await this.agent.close().catch(() => undefined);
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
          claimed = await this.claim(free);
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

  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    return queryRows<ClaimedDelivery>(
      this.o.dataSource,
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND s.enabled
           AND NOT EXISTS (
             SELECT 1 FROM webhook_deliveries p
             WHERE p.subscription_id = d.subscription_id AND p.ordering_key = d.ordering_key
               AND p.status = 'pending' AND p.event_seq < d.event_seq)
         ORDER BY d.next_attempt_at, d.event_seq
         LIMIT $1
         FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $2::float8 / 1000)
         FROM due WHERE d.id = due.id
         RETURNING d.id, d.subscription_id, d.company_id, d.event_id, d.attempts, d.trace_context
       )
       SELECT c.id::text, c.subscription_id, c.company_id, c.event_id, c.attempts, c.trace_context, s.url, s.secret, s.previous_secret,
         (s.previous_secret IS NOT NULL AND s.previous_secret_expires_at > now()) AS previous_secret_valid,
         e.type, e.publisher, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, e.data
       FROM claimed c
       JOIN webhook_subscriptions s ON s.id = c.subscription_id
       JOIN webhook_events e ON e.id = c.event_id`,
      [limit, this.o.leaseMs],
    );
  }

  private async attempt(row: ClaimedDelivery): Promise<void> {
    const body = JSON.stringify({
      id: row.event_id,
      type: row.type,
      publisher: row.publisher,
      companyId: row.company_id,
      timestamp: row.occurred_at,
      data: row.data,
    });
    const attemptedAt = new Date();
    const secrets = row.previous_secret_valid && row.previous_secret ? [row.secret, row.previous_secret] : [row.secret];
    const headers = signedHeaders({
      messageId: row.event_id,
      timestamp: attemptedAt,
      body,
      secrets,
      subscriptionId: row.subscription_id,
      companyId: row.company_id,
    });
    // With tracing on: a client span per attempt, and `traceparent` on the request.
    const span = startDeliverySpan({
      traceContext: row.trace_context,
      url: row.url,
      subscriptionId: row.subscription_id,
      eventId: row.event_id,
      eventType: row.type,
      companyId: row.company_id,
      attempt: row.attempts + 1,
    });
    if (span) Object.assign(headers, span.headers);
    const started = performance.now();
    let status: number | undefined;
    let retryAfterMs: number | undefined;
    let error: string | undefined;
    try {
      const host = new URL(row.url).hostname.replace(/^\[|\]$/g, '');
      // An IP literal is connected to without a lookup, so it is checked here.
      if (!this.o.allowPrivateTargets && isIP(host) && isPrivateAddress(host)) {
        throw new Error(`refused to connect to ${host}: a private, loopback or link-local address`);
      }
      const response = await request(row.url, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
      status = response.statusCode;
      if (status === 429 || status === 503) retryAfterMs = parseRetryAfter(response.headers['retry-after']);
      await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    } catch (caught) {
      error = messageOf(caught);
    }
    const latencyMs = Math.round(performance.now() - started);
    span?.end({ status, error });
    await this.record(row, { attemptedAt, status, retryAfterMs, error, latencyMs });
  }

  private async record(
    row: ClaimedDelivery,
    result: { attemptedAt: Date; status?: number; retryAfterMs?: number; error?: string; latencyMs: number },
  ): Promise<void> {
    const attempt = row.attempts + 1;
    const delivered = result.status !== undefined && result.status >= 200 && result.status < 300;
    const gone = result.status === 410;
    const error = (result.error ?? (delivered ? undefined : `HTTP ${result.status}`))?.slice(0, ERROR_TEXT_MAX) ?? null;
    const delay = delivered || gone ? undefined : nextRetryDelay(this.o.retry, attempt, result.retryAfterMs);
    const outcome: AttemptOutcome = delivered ? 'delivered' : gone ? 'gone' : delay === undefined ? 'failed' : 'retry';
    // The subscription's state after this attempt: a success clears `failing_since`, a 410
    // disables, any other failure starts (or continues) the failing period and disables the
    // subscription once it has lasted `disableAfterFailingMs`.
    const subscriptionChange = delivered
      ? { set: `failing_since = NULL`, where: `AND failing_since IS NOT NULL`, params: [] as unknown[] }
      : gone
        ? { set: `enabled = false, disabled_reason = $13::text, updated_at = now()`, where: '', params: ['The endpoint answered 410 Gone'] }
        : {
            set: `failing_since = COALESCE(failing_since, $4::timestamptz),
             enabled = CASE WHEN COALESCE(failing_since, $4::timestamptz) <= now() - make_interval(secs => $13::float8 / 1000) THEN false ELSE enabled END,
             disabled_reason = CASE WHEN COALESCE(failing_since, $4::timestamptz) <= now() - make_interval(secs => $13::float8 / 1000)
               THEN 'Every delivery failed for ' || $14::text ELSE disabled_reason END`,
            where: '',
            params: [this.o.disableAfterFailingMs, describeDuration(this.o.disableAfterFailingMs)],
          };
    // ONE statement, atomic on its own: one round trip instead of a transaction of six, which at
    // hundreds of deliveries per second was most of the worker's cost. Subscription first (KEY
    // SHARE, taken by the gating EXISTS before the delivery row is touched), then delivery: the
    // same lock order as deleting a subscription (which cascades to its deliveries), so the two
    // never deadlock, and records of one subscription still run side by side. Nothing is written
    // when the delivery is no longer pending (deleted, or recorded by another worker after our
    // lease ran out) or the subscription is gone.
    await this.o.dataSource.query(
      `WITH subscription AS (
         SELECT id FROM webhook_subscriptions WHERE id = $8 FOR KEY SHARE
       ), updated AS (
         UPDATE webhook_deliveries SET
           status = $2::varchar, attempts = $3, last_attempt_at = $4, last_response_code = $5, last_error = $6,
           delivered_at = CASE WHEN $2::varchar = 'delivered' THEN now() ELSE delivered_at END,
           next_attempt_at = CASE WHEN $7::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $7::float8 / 1000) END
         WHERE id = $1 AND status = 'pending' AND EXISTS (SELECT 1 FROM subscription)
         RETURNING id
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, subscription_id, company_id, event_id, attempt, attempted_at, outcome, response_code, latency_ms, error)
         SELECT updated.id, $8::uuid, $9::varchar, $10::uuid, $3::int, $4::timestamptz, $11::varchar, $5::int, $12::int, $6::varchar FROM updated
       ), subscription_state AS (
         UPDATE webhook_subscriptions SET ${subscriptionChange.set}
         WHERE id = $8 ${subscriptionChange.where} AND EXISTS (SELECT 1 FROM updated)
       )
       SELECT count(*)::int AS recorded FROM updated`,
      [
        row.id,
        outcome === 'retry' ? 'pending' : outcome === 'delivered' ? 'delivered' : 'failed',
        attempt,
        result.attemptedAt,
        result.status ?? null,
        error,
        delay ?? null,
        row.subscription_id,
        row.company_id,
        row.event_id,
        delivered ? 'delivered' : 'failed',
        result.latencyMs,
        ...subscriptionChange.params,
      ],
    );
    webhookAttempts.inc({ outcome });
    if (outcome === 'gone') this.logger.warn(`webhook subscription ${row.subscription_id} disabled: its endpoint answered 410`);
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
      const rows = await queryRows(
        this.o.dataSource,
        `DELETE FROM webhook_events WHERE id IN (
           SELECT e.id FROM webhook_events e
           WHERE e.received_at < now() - make_interval(secs => $1::float8 / 1000)
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
           LIMIT $2)
         RETURNING id`,
        [retention, CLEANUP_BATCH],
      );
      deleted += rows.length;
      if (rows.length < CLEANUP_BATCH || !this.running) return deleted;
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

function describeDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} day(s)`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hour(s)`;
  return `${ms} ms`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return `timed out: ${error.message}`;
    return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
  }
  return String(error);
}
