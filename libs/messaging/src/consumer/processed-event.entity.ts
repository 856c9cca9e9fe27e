import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One event a consumer group has handled, written in the same transaction as the handler's
 * effects: the row exists exactly when the effects do, so a redelivered event is recognised and
 * skipped. The schema comes from `CreateProcessedEvents1763740000001`.
 */
@Entity({ name: 'processed_events' })
@Index('processed_events_processed_at_idx', ['processedAt'])
export class ProcessedEventEntity {
  @PrimaryColumn({ name: 'consumer_group', type: 'varchar', length: 255 })
  consumerGroup: string;

  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  eventId: string;

  @Column({ name: 'event_type', type: 'varchar', length: 100 })
  eventType: string;

  /** Where it was read from, for tracing a record back to the log. */
  @Column({ type: 'varchar', length: 249 })
  topic: string;

  @Column({ type: 'integer' })
  partition: number;

  @Column({ name: 'offset', type: 'bigint' })
  offset: string;

  @Column({ name: 'processed_at', type: 'timestamptz', default: () => 'now()' })
  processedAt: Date;
}
