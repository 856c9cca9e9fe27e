import type { EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';
import { activeTraceCarrier } from '@erp/observability';
import { publisherOf } from '../publishers/publishers';

/** NOTIFY channel that wakes delivery workers (delivered on commit, per database). */
export const DELIVERIES_CHANNEL = 'erp_webhook_deliveries';

/** What the intake needs of a domain event: the envelope of `@erp/contracts`. */
export interface IncomingEvent {
  id: string;
  type: string;
  companyId: string;
  subject: string;
  time: string;
  data: object;
}

export interface IntakeResult {
  /** False when the event had been received before (a redelivery): nothing was added. */
  stored: boolean;
  /** Delivery rows created (one per matching enabled subscription of the company). */
  deliveries: number;
}

/**
 * The aggregate an event is about, for per-aggregate ordering: the entity (the type's first
 * word) and the envelope subject, e.g. `SALESORDER:SO/000123`.
 */
export function orderingKeyOf(event: Pick<IncomingEvent, 'type' | 'subject'>): string {
  return `${event.type.split('_')[0]}:${event.subject}`;
}

/**
 * Turns one domain event into delivery rows, inside the caller's transaction (the consumer's,
 * which also records the event as processed). The event is kept (for replay) and gets one
 * pending delivery per enabled subscription of the same company whose publisher and event types
 * match. Idempotent twice over: the event id is unique, and so is (subscription, event).
 */
export async function ingestEvent(manager: EntityManager, event: IncomingEvent): Promise<IntakeResult> {
  const publisher = publisherOf(event.type);
  if (!publisher) return { stored: false, deliveries: 0 };
  // One statement (one round trip) for the event, its deliveries and the wake-up: at hundreds of
  // events per second the round trips, not the work, were the intake's cost. The deliveries
  // insert takes the event's `seq` from the first insert's RETURNING, so a redelivered event
  // (the first insert does nothing) creates no deliveries; pg_notify is queued only when
  // deliveries were created and is delivered by Postgres at commit.
  const [result] = await namedQuery<{ stored: number; deliveries: number }>(
    manager,
    `WITH stored AS (
       INSERT INTO webhook_events (id, company_id, type, publisher, ordering_key, occurred_at, data)
       VALUES (:id, :companyId, :type, :publisher, :orderingKey, :time::timestamptz, :data::jsonb)
       ON CONFLICT (id) DO NOTHING
       RETURNING seq
     ), created AS (
       INSERT INTO webhook_deliveries (subscription_id, event_id, company_id, ordering_key, event_seq, trace_context)
       SELECT s.id, :id, s.company_id, :orderingKey, stored.seq, :traceContext::jsonb
       FROM stored, webhook_subscriptions s
       WHERE s.company_id = :companyId AND s.publisher = :publisher AND s.enabled AND :type = ANY (s.event_types)
       ON CONFLICT (subscription_id, event_id) DO NOTHING
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM stored)::int AS stored, (SELECT count(*) FROM created)::int AS deliveries,
       (SELECT pg_notify(:channel, '') WHERE EXISTS (SELECT 1 FROM created)) AS notified`,
    // With tracing on, the consumer's span (the active one) becomes the parent of every attempt.
    {
      id: event.id,
      companyId: event.companyId,
      type: event.type,
      publisher,
      orderingKey: orderingKeyOf(event),
      time: event.time,
      data: JSON.stringify(event.data),
      traceContext: traceContextJson(),
      channel: DELIVERIES_CHANNEL,
    },
  );
  return { stored: result.stored > 0, deliveries: result.deliveries };
}

function traceContextJson(): string | null {
  const carrier = activeTraceCarrier();
  return carrier ? JSON.stringify(carrier) : null;
}
