import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEventEntity } from '../events/webhook-event.entity';
import { WebhookSubscriptionEntity } from '../subscriptions/subscription.entity';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one subscription (unique pair: intake is idempotent). `pending` until a 2xx
 * (`delivered`) or until the retries run out or the receiver answers 410 (`failed`; a replay
 * makes it pending again). `next_attempt_at` is also the claim lease while an attempt runs.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('webhook_deliveries_subscription_event_key', ['subscriptionId', 'eventId'], { unique: true })
@Index('webhook_deliveries_due_idx', { synchronize: false })
@Index('webhook_deliveries_order_idx', { synchronize: false })
@Check('webhook_deliveries_status_check', `status IN ('pending', 'delivered', 'failed')`)
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @ManyToOne(() => WebhookSubscriptionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'subscription_id', foreignKeyConstraintName: 'webhook_deliveries_subscription_id_fkey' })
  subscription?: WebhookSubscriptionEntity;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @ManyToOne(() => WebhookEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_deliveries_event_id_fkey' })
  event?: WebhookEventEntity;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ name: 'ordering_key', type: 'varchar', length: 300 })
  orderingKey: string;

  @Column({ name: 'event_seq', type: 'bigint' })
  eventSeq: string;

  @Column({ type: 'varchar', length: 12, default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', default: () => 'now()' })
  nextAttemptAt: Date;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', nullable: true })
  lastAttemptAt: Date | null;

  @Column({ name: 'last_response_code', type: 'integer', nullable: true })
  lastResponseCode: number | null;

  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true })
  lastError: string | null;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** W3C trace context of the consumed event (tracing on only); each attempt's span is its child. */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true })
  traceContext: { traceparent: string; tracestate?: string } | null;
}

/** Every attempt, for the delivery log (`GET .../deliveries`). */
@Entity({ name: 'webhook_delivery_attempts' })
@Index('webhook_delivery_attempts_subscription_idx', ['subscriptionId', 'id'])
@Index('webhook_delivery_attempts_delivery_idx', ['deliveryId'])
@Check('webhook_delivery_attempts_outcome_check', `outcome IN ('delivered', 'failed')`)
export class WebhookDeliveryAttemptEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'delivery_id', type: 'bigint' })
  deliveryId: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id', foreignKeyConstraintName: 'webhook_delivery_attempts_delivery_id_fkey' })
  delivery?: WebhookDeliveryEntity;

  @Column({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'attempted_at', type: 'timestamptz' })
  attemptedAt: Date;

  @Column({ type: 'varchar', length: 12 })
  outcome: 'delivered' | 'failed';

  @Column({ name: 'response_code', type: 'integer', nullable: true })
  responseCode: number | null;

  @Column({ name: 'latency_ms', type: 'integer' })
  latencyMs: number;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;
}
