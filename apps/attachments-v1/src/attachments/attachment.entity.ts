import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

/**
 * The tables as TypeORM sees them. They describe the schema (and let the drift test compare it
 * with the migrations); reads and writes use hand-written SQL.
 */
@Entity({ name: 'attachments' })
@Index('attachments_owner_name_key', ['companyId', 'ownerEndpoint', 'ownerId', 'name'], { unique: true })
export class AttachmentEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'attachments_pkey' })
  id: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ name: 'owner_endpoint', type: 'varchar', length: 30 })
  ownerEndpoint: string;

  @Column({ name: 'owner_id', type: 'varchar', length: 64 })
  ownerId: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'latest_revision', type: 'integer' })
  latestRevision: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_modified_at', type: 'timestamptz' })
  lastModifiedAt: Date;
}

/** One uploaded version of an attachment; its bytes are the object `storageKey`. */
@Entity({ name: 'attachment_revisions' })
@Index('attachment_revisions_storage_key_key', ['storageKey'], { unique: true })
export class AttachmentRevisionEntity {
  @PrimaryColumn({ name: 'attachment_id', type: 'uuid', primaryKeyConstraintName: 'attachment_revisions_pkey' })
  attachmentId: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'attachment_revisions_pkey' })
  revision: number;

  @ManyToOne(() => AttachmentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'attachment_id', referencedColumnName: 'id', foreignKeyConstraintName: 'attachment_revisions_attachment_fkey' })
  attachment?: AttachmentEntity;

  @Column({ name: 'storage_key', type: 'varchar', length: 200 })
  storageKey: string;

  @Column({ name: 'content_type', type: 'varchar', length: 255 })
  contentType: string;

  @Column({ type: 'bigint' })
  size: string;

  @Column({ type: 'char', length: 64 })
  sha256: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/**
 * Bytes written (or being written) to storage whose metadata has not committed yet. The row is
 * committed before the first byte is stored and deleted in the metadata transaction, so a crash
 * in between leaves the row: the orphan sweeper then deletes the bytes.
 */
@Entity({ name: 'pending_uploads' })
@Index('pending_uploads_started_at_idx', ['startedAt'])
export class PendingUploadEntity {
  @PrimaryColumn({ name: 'storage_key', type: 'varchar', length: 200, primaryKeyConstraintName: 'pending_uploads_pkey' })
  storageKey: string;

  @Column({ name: 'company_id', type: 'varchar', length: 64 })
  companyId: string;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;
}
