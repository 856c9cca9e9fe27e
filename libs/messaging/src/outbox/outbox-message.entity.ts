import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One event waiting to be (or already) published. Written by `Outbox.add` in the transaction
 * of the state change it describes, read and marked by the relay. The schema comes from
 * `CreateOutbox1763740000000`; this entity describes it so the drift check covers it.
 */
@Entity({ name: 'outbox' })
@Index('outbox_unpublished_idx', ['sequence'], { where: 'published_at IS NULL' })
@Index('outbox_published_at_idx', ['publishedAt'], { where: 'published_at IS NOT NULL' })
export class OutboxMessageEntity {
  /** The event id (the envelope's `id`). */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  /**
   * Insertion order; the relay publishes in this order. For one aggregate it is also commit
   * order, because the change locks the aggregate's row before the event is added.
   */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', unique: true })
  sequence: string;

  @Column({ type: 'varchar', length: 249 })
  topic: string;

  @Column({ name: 'message_key', type: 'varchar', length: 300 })
  messageKey: string;

  @Column({ name: 'event_type', type: 'varchar', length: 100 })
  eventType: string;

  /** The whole envelope, published as the message value. */
  @Column({ type: 'jsonb' })
  payload: object;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt: Date | null;

  /** Publish attempts, including the successful one. */
  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /**
   * W3C trace context (`{ traceparent, tracestate? }`) of the change that added the event, when
   * tracing is on; the relay sends it as Kafka headers. Added by `AddOutboxTraceContext1795300000000`.
   */
  @Column({ name: 'trace_context', type: 'jsonb', nullable: true })
  traceContext: { traceparent: string; tracestate?: string } | null;
}
