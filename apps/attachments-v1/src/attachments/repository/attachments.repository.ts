import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AttachmentCreated } from '@erp/contracts';
import { namedQuery } from '@erp/database';
import { writeTransaction } from '@erp/idempotency';

/** One revision's metadata and where its bytes are. */
export interface AttachmentRevision {
  id: string;
  name: string;
  revision: number;
  contentType: string;
  size: number;
  sha256: string;
  storageKey: string;
}

/** A file whose bytes are stored, about to become a revision. */
export interface StoredFile {
  key: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** The object an attachment belongs to, as the upload path names it. */
export interface AttachmentOwner {
  companyId: string;
  endpoint: AttachmentCreated.AttachmentOwnerEndpoint;
  objectId: string;
}

/**
 * Persistence of attachment metadata and of the `pending_uploads` rows that name bytes not yet
 * (or never) committed: every statement scoped by company or by a storage key, no rules.
 */
@Injectable()
export class AttachmentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    // A keyed request's first write commits with its stored answer (@erp/idempotency).
    return writeTransaction(this.db, work);
  }

  /** The latest revision, or `revision`; undefined when absent or another company's. */
  async findRevision(companyId: string, id: string, revision: number | undefined): Promise<AttachmentRevision | undefined> {
    const rows = await namedQuery<{ id: string; name: string; revision: number; content_type: string; size: string; sha256: string; storage_key: string }>(
      this.db,
      `SELECT a.id, a.name, r.revision, r.content_type, r.size::text AS size, r.sha256, r.storage_key
       FROM attachments a
       JOIN attachment_revisions r ON r.attachment_id = a.id AND r.revision = COALESCE(:revision::int, a.latest_revision)
       WHERE a.company_id = :companyId AND a.id = :id`,
      { companyId, id, revision: revision ?? null },
    );
    const row = rows[0];
    return (
      row && {
        id: row.id,
        name: row.name,
        revision: row.revision,
        contentType: row.content_type,
        size: Number(row.size),
        sha256: row.sha256,
        storageKey: row.storage_key,
      }
    );
  }

  /** Committed before the first byte is stored, so bytes a crash leaves behind are always named somewhere. */
  async addPending(companyId: string, key: string): Promise<void> {
    await namedQuery(this.db, `INSERT INTO pending_uploads (storage_key, company_id, started_at) VALUES (:key, :companyId, now())`, {
      key,
      companyId,
    });
  }

  /**
   * Takes the upload's pending row in its metadata transaction. False when it is gone: the orphan
   * sweeper judged the upload abandoned and deleted its bytes.
   */
  async claimPending(tx: EntityManager, key: string): Promise<boolean> {
    const rows = await namedQuery(tx, `DELETE FROM pending_uploads WHERE storage_key = :key RETURNING 1`, { key });
    return rows.length > 0;
  }

  async deletePending(key: string, executor: DataSource | EntityManager = this.db): Promise<void> {
    await namedQuery(executor, `DELETE FROM pending_uploads WHERE storage_key = :key`, { key });
  }

  /**
   * Pending rows older than `maxAgeMinutes`, oldest first, locked for the caller's transaction;
   * rows another replica holds are skipped, so replicas share the work.
   */
  async claimAbandoned(tx: EntityManager, maxAgeMinutes: number, limit: number): Promise<string[]> {
    const rows = await namedQuery<{ storage_key: string }>(
      tx,
      `SELECT storage_key FROM pending_uploads WHERE started_at < now() - make_interval(mins => :maxAgeMinutes)
       ORDER BY started_at LIMIT :limit FOR UPDATE SKIP LOCKED`,
      { maxAgeMinutes, limit },
    );
    return rows.map((row) => row.storage_key);
  }

  /**
   * The attachment of this name on the owner, created or moved to its next revision. The row
   * lock on the name orders concurrent uploads of one name, so each gets its own number.
   */
  async nextRevision(tx: EntityManager, id: string, owner: AttachmentOwner, name: string): Promise<{ id: string; revision: number }> {
    const [row] = await namedQuery<{ id: string; revision: number }>(
      tx,
      `INSERT INTO attachments AS a (id, company_id, owner_endpoint, owner_id, name, latest_revision, created_at, last_modified_at)
       VALUES (:id, :companyId, :endpoint, :objectId, :name, 1, now(), now())
       ON CONFLICT (company_id, owner_endpoint, owner_id, name)
       DO UPDATE SET latest_revision = a.latest_revision + 1, last_modified_at = now()
       RETURNING a.id, a.latest_revision AS revision`,
      { id, ...owner, name },
    );
    return row;
  }

  async insertRevision(tx: EntityManager, attachment: { id: string; revision: number }, file: StoredFile): Promise<void> {
    await namedQuery(
      tx,
      `INSERT INTO attachment_revisions (attachment_id, revision, storage_key, content_type, size, sha256, created_at)
       VALUES (:id, :revision, :key, :contentType, :size, :sha256, now())`,
      { id: attachment.id, revision: attachment.revision, key: file.key, contentType: file.contentType, size: file.size, sha256: file.sha256 },
    );
  }
}
