import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A domain event as received from Kafka, kept so that deliveries can be built (and replayed)
 * without Kafka. `seq` is the arrival order; `ordering_key` names the aggregate.
 */
@Entity({ name: 'webhook_events' })
@Index('webhook_events_seq_key', ['seq'], { unique: true })
@Index('webhook_events_company_time_idx', ['companyId', 'publisher', 'occurredAt'])
export class WebhookEventEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS' })
  seq: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ type: 'varchar', length: 100 })
  type: string;

  @Column({ type: 'varchar', length: 100 })
  publisher: string;

  @Column({ name: 'ordering_key', type: 'varchar', length: 300 })
  orderingKey: string;

  @Column({ name: 'occurred_at', type: 'timestamptz' })
  occurredAt: Date;

  @Column({ name: 'received_at', type: 'timestamptz', default: () => 'now()' })
  receivedAt: Date;

  @Column({ type: 'jsonb' })
  data: object;
}
