import type { EntityManager } from 'typeorm';
import { queryRows } from '@erp/database';
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
  const stored = await queryRows<{ seq: string }>(
    manager,
    `INSERT INTO webhook_events (id, company_id, type, publisher, ordering_key, occurred_at, data)
     VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::jsonb)
     ON CONFLICT (id) DO NOTHING
     RETURNING seq::text`,
    [event.id, event.companyId, event.type, publisher, orderingKeyOf(event), event.time, JSON.stringify(event.data)],
  );
  if (stored.length === 0) return { stored: false, deliveries: 0 };
  const created = await queryRows<{ id: string }>(
    manager,
    `INSERT INTO webhook_deliveries (subscription_id, event_id, company_id, ordering_key, event_seq)
     SELECT s.id, $1, s.company_id, $4, $5::bigint
     FROM webhook_subscriptions s
     WHERE s.company_id = $2 AND s.publisher = $3 AND s.enabled AND $6 = ANY (s.event_types)
     ON CONFLICT (subscription_id, event_id) DO NOTHING
     RETURNING id::text`,
    [event.id, event.companyId, publisher, orderingKeyOf(event), stored[0].seq, event.type],
  );
  if (created.length > 0) await manager.query(`SELECT pg_notify($1, '')`, [DELIVERIES_CHANNEL]);
  return { stored: true, deliveries: created.length };
}
