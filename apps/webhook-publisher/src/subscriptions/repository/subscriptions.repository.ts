import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { namedQuery } from '@erp/database';
import { keyedWrite } from '@erp/idempotency';
import type { V3PageRequest } from '@erp/paging';
import type { DeliveryAttemptView, SubscriptionView } from '../subscription-views';

/** A new subscription's row. */
export interface NewSubscription {
  id: string;
  companyId: string;
  publisher: string;
  eventTypes: string[];
  url: string;
  description: string | null;
  secret: string;
}

/** What a PATCH changes: undefined leaves a column as it is. */
export interface SubscriptionChanges {
  url?: string;
  eventTypes?: string[];
  enabled?: boolean;
  /** null clears it. */
  description?: string | null;
}

const ISO_MS = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// The views are built by the statements themselves (camelCase aliases), so rows are answers as they are.
const SUBSCRIPTION_COLUMNS = `s.id, s.publisher, s.event_types AS "eventTypes", s.url, s.description, s.enabled,
  s.disabled_reason AS "disabledReason",
  CASE WHEN s.previous_secret_expires_at > now() THEN ${ISO_MS('s.previous_secret_expires_at')} END AS "previousSecretExpiresAt",
  ${ISO_MS('s.created_at')} AS "createdAt", ${ISO_MS('s.updated_at')} AS "updatedAt"`;

/** Persistence of subscriptions, their delivery log and replays: every statement scoped by company, no rules. */
@Injectable()
export class SubscriptionsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(subscription: NewSubscription): Promise<SubscriptionView> {
    const [row] = await keyedWrite(this.db, (manager) =>
      namedQuery<SubscriptionView>(
        manager,
        `INSERT INTO webhook_subscriptions AS s (id, company_id, publisher, event_types, url, description, secret)
       VALUES (:id, :companyId, :publisher, :eventTypes, :url, :description, :secret)
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
        subscription,
      ),
    );
    return row;
  }

  /** One page in creation order, and the company's total (read side by side). */
  async page(companyId: string, page: V3PageRequest): Promise<{ rows: SubscriptionView[]; total: number }> {
    const [rows, count] = await Promise.all([
      namedQuery<SubscriptionView>(
        this.db,
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions s WHERE s.company_id = :companyId
         ORDER BY s.created_at, s.id LIMIT :pageSize OFFSET :offset`,
        { companyId, pageSize: page.pageSize, offset: page.offset },
      ),
      namedQuery<{ total: number }>(
        this.db,
        `SELECT count(*)::int AS total FROM webhook_subscriptions WHERE company_id = :companyId`,
        {
          companyId,
        },
      ),
    ]);
    return { rows, total: count[0].total };
  }

  async find(companyId: string, id: string): Promise<SubscriptionView | undefined> {
    const rows = await namedQuery<SubscriptionView>(
      this.db,
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions s WHERE s.company_id = :companyId AND s.id = :id`,
      { companyId, id },
    );
    return rows[0];
  }

  /**
   * Applies the changes; re-enabling also clears the disabled reason and the failing period.
   * Undefined when the subscription is not there (for this company).
   */
  async update(
    companyId: string,
    id: string,
    changes: SubscriptionChanges,
  ): Promise<SubscriptionView | undefined> {
    const rows = await keyedWrite(this.db, (manager) =>
      namedQuery<SubscriptionView>(
        manager,
        `UPDATE webhook_subscriptions AS s SET
         url = COALESCE(:url, s.url),
         event_types = COALESCE(:eventTypes, s.event_types),
         description = CASE WHEN :setDescription THEN :description ELSE s.description END,
         enabled = COALESCE(:enabled, s.enabled),
         disabled_reason = CASE WHEN :enabled IS TRUE THEN NULL ELSE s.disabled_reason END,
         failing_since = CASE WHEN :enabled IS TRUE THEN NULL ELSE s.failing_since END,
         updated_at = now()
       WHERE s.company_id = :companyId AND s.id = :id
       RETURNING ${SUBSCRIPTION_COLUMNS}`,
        {
          companyId,
          id,
          url: changes.url ?? null,
          eventTypes: changes.eventTypes ?? null,
          setDescription: changes.description !== undefined,
          description: changes.description ?? null,
          enabled: changes.enabled ?? null,
        },
      ),
    );
    return rows[0];
  }

  /** False when there was nothing to delete. Its deliveries and attempts go with it (foreign keys). */
  async delete(companyId: string, id: string): Promise<boolean> {
    const rows = await namedQuery(
      this.db,
      `DELETE FROM webhook_subscriptions WHERE company_id = :companyId AND id = :id RETURNING id`,
      {
        companyId,
        id,
      },
    );
    return rows.length > 0;
  }

  /**
   * Makes `secret` current; the current one becomes the previous, signing for `overlapMs` more.
   * Returns when it stops, or undefined when the subscription is not there.
   */
  async rotateSecret(
    companyId: string,
    id: string,
    secret: string,
    overlapMs: number,
  ): Promise<string | undefined> {
    const rows = await keyedWrite(this.db, (manager) =>
      namedQuery<{ previousSecretExpiresAt: string }>(
        manager,
        `UPDATE webhook_subscriptions AS s SET previous_secret = s.secret, secret = :secret,
         previous_secret_expires_at = now() + make_interval(secs => :overlapMs::float8 / 1000), updated_at = now()
       WHERE s.company_id = :companyId AND s.id = :id
       RETURNING ${ISO_MS('s.previous_secret_expires_at')} AS "previousSecretExpiresAt"`,
        { companyId, id, secret, overlapMs },
      ),
    );
    return rows[0]?.previousSecretExpiresAt;
  }

  /** One page of the subscription's attempts, newest first, and their total (read side by side). */
  async attemptsPage(
    companyId: string,
    id: string,
    page: V3PageRequest,
  ): Promise<{ rows: DeliveryAttemptView[]; total: number }> {
    const [rows, count] = await Promise.all([
      namedQuery<DeliveryAttemptView>(
        this.db,
        `SELECT a.id::text, a.event_id AS "eventId", e.type AS "eventType", a.event_id AS "webhookId", a.attempt,
           ${ISO_MS('a.attempted_at')} AS "attemptedAt", a.outcome AS status, a.response_code AS "responseCode",
           a.latency_ms AS "latencyMs", a.error
         FROM webhook_delivery_attempts a JOIN webhook_events e ON e.id = a.event_id
         WHERE a.company_id = :companyId AND a.subscription_id = :id
         ORDER BY a.id DESC LIMIT :pageSize OFFSET :offset`,
        { companyId, id, pageSize: page.pageSize, offset: page.offset },
      ),
      namedQuery<{ total: number }>(
        this.db,
        `SELECT count(*)::int AS total FROM webhook_delivery_attempts WHERE company_id = :companyId AND subscription_id = :id`,
        { companyId, id },
      ),
    ]);
    return { rows, total: count[0].total };
  }

  /**
   * Queues the subscription's events of [since, until) (by event time) again, in their original
   * order. Deliveries already pending are left as they are; delivered and failed ones start over.
   * Returns how many were queued.
   */
  async requeue(companyId: string, id: string, since: Date, until: Date): Promise<number> {
    const rows = await keyedWrite(this.db, (manager) =>
      namedQuery(
        manager,
        `INSERT INTO webhook_deliveries (subscription_id, event_id, company_id, ordering_key, event_seq)
       SELECT s.id, e.id, e.company_id, e.ordering_key, e.seq
       FROM webhook_subscriptions s
       JOIN webhook_events e ON e.company_id = s.company_id AND e.publisher = s.publisher AND e.type = ANY (s.event_types)
       WHERE s.company_id = :companyId AND s.id = :id AND e.occurred_at >= :since AND e.occurred_at < :until
       ORDER BY e.seq
       ON CONFLICT (subscription_id, event_id) DO UPDATE SET
         status = 'pending', attempts = 0, next_attempt_at = now(), last_error = NULL, delivered_at = NULL
         WHERE webhook_deliveries.status <> 'pending'
       RETURNING id`,
        { companyId, id, since, until },
      ),
    );
    return rows.length;
  }
}
