import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A company's webhook subscription. The schema comes from the migrations; the service reads and
 * writes it with SQL (repository/subscriptions.repository.ts). `secret` signs every delivery;
 * after a rotation `previous_secret` signs too until `previous_secret_expires_at`. `failing_since`
 * is the time of the first failure after the last success (5 days of it disables the subscription).
 */
@Entity({ name: 'webhook_subscriptions' })
@Index('webhook_subscriptions_company_idx', ['companyId', 'createdAt', 'id'])
@Index('webhook_subscriptions_company_publisher_idx', ['companyId', 'publisher'])
export class WebhookSubscriptionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ type: 'varchar', length: 100 })
  publisher: string;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes: string[];

  @Column({ type: 'varchar', length: 2000 })
  url: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ name: 'disabled_reason', type: 'varchar', length: 300, nullable: true })
  disabledReason: string | null;

  @Column({ type: 'varchar', length: 100 })
  secret: string;

  @Column({ name: 'previous_secret', type: 'varchar', length: 100, nullable: true })
  previousSecret: string | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
