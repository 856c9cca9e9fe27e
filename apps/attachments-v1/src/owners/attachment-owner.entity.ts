import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A record that may own attachments (a customer, a supplier invoice), learned from its owner's
 * created event. Uploads to anything not listed here for the caller's company are refused (404).
 */
@Entity({ name: 'attachment_owners' })
export class AttachmentOwnerEntity {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'attachment_owners_pkey' })
  companyId: string;

  @PrimaryColumn({ type: 'varchar', length: 30, primaryKeyConstraintName: 'attachment_owners_pkey' })
  endpoint: string;

  @PrimaryColumn({ name: 'object_id', type: 'varchar', length: 64, primaryKeyConstraintName: 'attachment_owners_pkey' })
  objectId: string;

  @Column({ name: 'known_since', type: 'timestamptz' })
  knownSince: Date;
}
