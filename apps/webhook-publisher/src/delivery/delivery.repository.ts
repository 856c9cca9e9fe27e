import type { DataSource } from 'typeorm';
import { namedQuery } from '@erp/database';
import type { AttemptOutcome, JudgedAttempt } from './delivery-outcome';

/** A claimed delivery with what its attempt needs: the target, the secrets and the event. */
export interface ClaimedDelivery {
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

/**
 * The subscription's state after an attempt: a success clears `failing_since`, a 410 disables,
 * any other failure starts (or continues) the failing period and disables the subscription once
 * it has lasted `:disableAfterMs`.
 */
function subscriptionChange(outcome: AttemptOutcome): { set: string; where: string } {
  if (outcome === 'delivered') return { set: `failing_since = NULL`, where: `AND failing_since IS NOT NULL` };
  if (outcome === 'gone') return { set: `enabled = false, disabled_reason = :goneReason::text, updated_at = now()`, where: '' };
  return {
    set: `failing_since = COALESCE(failing_since, :attemptedAt::timestamptz),
             enabled = CASE WHEN COALESCE(failing_since, :attemptedAt::timestamptz) <= now() - make_interval(secs => :disableAfterMs::float8 / 1000) THEN false ELSE enabled END,
             disabled_reason = CASE WHEN COALESCE(failing_since, :attemptedAt::timestamptz) <= now() - make_interval(secs => :disableAfterMs::float8 / 1000)
               THEN 'Every delivery failed for ' || :failingFor::text ELSE disabled_reason END`,
    where: '',
  };
}

/**
 * The delivery worker's statements: claiming due deliveries, recording attempts, deleting
 * expired events. Not a Nest provider: a worker (and a test's second worker) owns one per
 * DataSource. These run outside requests, as the owner, across companies.
 */
export class DeliveryRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Up to `limit` due deliveries, each pushed `leaseMs` into the future so no other worker
   * claims it meanwhile (`FOR UPDATE SKIP LOCKED`: workers never wait on each other). A row is
   * due only when no earlier row (by event arrival) of the same subscription and ordering key is
   * still pending, which keeps each aggregate's events in order.
   */
  claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return namedQuery<ClaimedDelivery>(
      this.db,
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND s.enabled
           AND NOT EXISTS (
             SELECT 1 FROM webhook_deliveries p
             WHERE p.subscription_id = d.subscription_id AND p.ordering_key = d.ordering_key
               AND p.status = 'pending' AND p.event_seq < d.event_seq)
         ORDER BY d.next_attempt_at, d.event_seq
         LIMIT :limit
         FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => :leaseMs::float8 / 1000)
         FROM due WHERE d.id = due.id
         RETURNING d.id, d.subscription_id, d.company_id, d.event_id, d.attempts, d.trace_context
       )
       SELECT c.id::text, c.subscription_id, c.company_id, c.event_id, c.attempts, c.trace_context, s.url, s.secret, s.previous_secret,
         (s.previous_secret IS NOT NULL AND s.previous_secret_expires_at > now()) AS previous_secret_valid,
         e.type, e.publisher, to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, e.data
       FROM claimed c
       JOIN webhook_subscriptions s ON s.id = c.subscription_id
       JOIN webhook_events e ON e.id = c.event_id`,
      { limit, leaseMs },
    );
  }

  /**
   * The attempt, the delivery's new state and the subscription's in ONE statement, atomic on its
   * own: one round trip instead of a transaction of six, which at hundreds of deliveries per
   * second was most of the worker's cost. Subscription first (KEY SHARE, taken by the gating
   * EXISTS before the delivery row is touched), then delivery: the same lock order as deleting a
   * subscription (which cascades to its deliveries), so the two never deadlock, and records of one
   * subscription still run side by side. Nothing is written when the delivery is no longer
   * pending (deleted, or recorded by another worker after our lease ran out) or the subscription
   * is gone.
   */
  async record(row: ClaimedDelivery, attempt: JudgedAttempt, disableAfterFailingMs: number): Promise<void> {
    const change = subscriptionChange(attempt.outcome);
    await namedQuery(
      this.db,
      `WITH subscription AS (
         SELECT id FROM webhook_subscriptions WHERE id = :subscriptionId FOR KEY SHARE
       ), updated AS (
         UPDATE webhook_deliveries SET
           status = :deliveryStatus::varchar, attempts = :attempt, last_attempt_at = :attemptedAt, last_response_code = :responseCode, last_error = :error,
           delivered_at = CASE WHEN :deliveryStatus::varchar = 'delivered' THEN now() ELSE delivered_at END,
           next_attempt_at = CASE WHEN :delayMs::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => :delayMs::float8 / 1000) END
         WHERE id = :deliveryId AND status = 'pending' AND EXISTS (SELECT 1 FROM subscription)
         RETURNING id
       ), attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, subscription_id, company_id, event_id, attempt, attempted_at, outcome, response_code, latency_ms, error)
         SELECT updated.id, :subscriptionId::uuid, :companyId::varchar, :eventId::uuid, :attempt::int, :attemptedAt::timestamptz, :attemptOutcome::varchar, :responseCode::int, :latencyMs::int, :error::varchar FROM updated
       ), subscription_state AS (
         UPDATE webhook_subscriptions SET ${change.set}
         WHERE id = :subscriptionId ${change.where} AND EXISTS (SELECT 1 FROM updated)
       )
       SELECT count(*)::int AS recorded FROM updated`,
      {
        deliveryId: row.id,
        deliveryStatus: attempt.outcome === 'retry' ? 'pending' : attempt.outcome === 'delivered' ? 'delivered' : 'failed',
        attempt: attempt.attempt,
        attemptedAt: attempt.attemptedAt,
        responseCode: attempt.status ?? null,
        error: attempt.errorText,
        delayMs: attempt.delayMs ?? null,
        subscriptionId: row.subscription_id,
        companyId: row.company_id,
        eventId: row.event_id,
        attemptOutcome: attempt.outcome === 'delivered' ? 'delivered' : 'failed',
        latencyMs: attempt.latencyMs,
        // Bound only when the statement names them (see subscriptionChange).
        goneReason: 'The endpoint answered 410 Gone',
        disableAfterMs: disableAfterFailingMs,
        failingFor: describeDuration(disableAfterFailingMs),
      },
    );
  }

  /**
   * Deletes up to `limit` events received more than `retentionMs` ago that have no pending
   * delivery (their deliveries and attempts go with them); returns how many.
   */
  async deleteExpiredEvents(retentionMs: number, limit: number): Promise<number> {
    const rows = await namedQuery(
      this.db,
      `DELETE FROM webhook_events WHERE id IN (
         SELECT e.id FROM webhook_events e
         WHERE e.received_at < now() - make_interval(secs => :retentionMs::float8 / 1000)
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
         LIMIT :limit)
       RETURNING id`,
      { retentionMs, limit },
    );
    return rows.length;
  }
}

function describeDuration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} day(s)`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} hour(s)`;
  return `${ms} ms`;
}
