import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * What this service knows of each customer, kept from the customer events (never read from the
 * customers service at request time). Orders are validated against it and `expand=customer`
 * reads it. `source_version` is the customer's row version in the event: an event older than the
 * stored one is ignored, so redelivered or reordered events cannot roll a customer back.
 */
@Entity({ name: 'customer_snapshots' })
export class CustomerSnapshotEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'customer_snapshots_pkey' })
  companyId: string;

  @PrimaryColumn({ name: 'customer_id', type: 'varchar', length: 30, primaryKeyConstraintName: 'customer_snapshots_pkey' })
  customerId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 20 })
  status: string;

  @Column({ name: 'currency_id', type: 'varchar', length: 3, nullable: true })
  currencyId: string | null;

  @Column({ name: 'source_version', type: 'bigint' })
  sourceVersion: string;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
