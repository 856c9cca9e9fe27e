import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import type { AttachmentCreated } from '@erp/contracts';
import { queryRows } from '@erp/database';
import { ApiError, NotFoundError, ValidationFailedError } from '@erp/errors';
import { AttachmentEvents } from '../events/attachment-events';
import { AttachmentOwners } from '../owners/attachment-owners';
import { OBJECT_STORAGE, ObjectNotFoundError, type ObjectStorage } from '../storage/object-storage';
import { cleanContentType, cleanFileName, fileNameLength, MAX_FILE_NAME_LENGTH } from './file-name';
import { UploadMeter, UploadTooLargeError } from './upload-meter';

type OwnerEndpoint = AttachmentCreated.AttachmentOwnerEndpoint;

export const ATTACHMENT_SETTINGS = Symbol('ATTACHMENT_SETTINGS');
export interface AttachmentSettings {
  maxBytes: number;
}

/** The upload's answer: `{ id, name, revision, contentType, size, sha256 }`. */
export interface UploadedAttachment {
  id: string;
  name: string;
  revision: number;
  contentType: string;
  size: number;
  sha256: string;
}

/** One revision's metadata and where its bytes are. */
export interface AttachmentRevision extends UploadedAttachment {
  storageKey: string;
}

interface StoredFile {
  key: string;
  name: string;
  contentType: string;
  size: number;
  sha256: string;
}

const FILE_FIELD = 'file';

function badUpload(message: string): ValidationFailedError {
  return ValidationFailedError.of(FILE_FIELD, message);
}

/**
 * Uploads and reads attachments. The bytes go to object storage first, under a fresh key that a
 * `pending_uploads` row (committed before the first byte) names; the metadata, the revision
 * number and the ATTACHMENT_CREATED outbox row then commit in one transaction that also deletes
 * the pending row. So an attachment is visible only once its bytes are complete, a rejected or
 * failed upload deletes what it wrote, and bytes left by a crash between the two steps keep their
 * pending row, from which the orphan sweeper deletes them.
 */
@Injectable()
export class AttachmentsService {
  private readonly logger = new Logger(AttachmentsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(ATTACHMENT_SETTINGS) private readonly settings: AttachmentSettings,
    private readonly owners: AttachmentOwners,
    private readonly events: AttachmentEvents,
  ) {}

  async upload(companyId: string, endpoint: OwnerEndpoint, objectId: string, request: FastifyRequest): Promise<UploadedAttachment> {
    if (!request.isMultipart()) {
      throw new ApiError('UnsupportedMediaType', 'Send the file as multipart/form-data with one part named "file"');
    }
    if (!(await this.owners.exists(companyId, endpoint, objectId))) {
      throw new NotFoundError(`${endpoint === 'customer' ? 'Customer' : 'Supplier invoice'} ${objectId}`);
    }
    let stored: StoredFile | undefined;
    try {
      const parts = request.parts({
        // One more byte than allowed reaches the meter, which then fails the upload (413).
        limits: { fileSize: this.settings.maxBytes + 1, files: 2, fields: 10, parts: 12, fieldSize: 64 * 1024, headerPairs: 20 },
      });
      for await (const part of readParts(parts)) {
        if (part.type === 'field') {
          if (part.fieldname === FILE_FIELD) throw badUpload('the part named "file" must be a file (with a file name)');
          continue; // other form fields are ignored
        }
        if (part.fieldname !== FILE_FIELD || stored) {
          part.file.resume();
          throw badUpload(
            stored ? 'exactly one file per request: send one POST per file' : `unexpected file part "${part.fieldname.slice(0, 50)}"; name it "file"`,
          );
        }
        stored = await this.store(companyId, part);
      }
      if (!stored) throw badUpload('a part named "file" holding the file is required');
      if (stored.size === 0) throw badUpload('the file is empty');
      return await this.commit(companyId, endpoint, objectId, stored);
    } catch (error) {
      if (stored) await this.discard(stored.key);
      // The rest of the body is read and dropped, so the client can finish sending and read the answer.
      request.raw.unpipe();
      request.raw.resume();
      throw error;
    }
  }

  /** The latest revision, or `revision`; 404 when absent or another company's. */
  async find(companyId: string, id: string, revision: number | undefined): Promise<AttachmentRevision> {
    const rows = await this.db.query<
      Array<{ id: string; name: string; revision: number; content_type: string; size: string; sha256: string; storage_key: string }>
    >(
      `SELECT a.id, a.name, r.revision, r.content_type, r.size::text AS size, r.sha256, r.storage_key
       FROM attachments a
       JOIN attachment_revisions r ON r.attachment_id = a.id AND r.revision = COALESCE($3::int, a.latest_revision)
       WHERE a.company_id = $1 AND a.id = $2`,
      [companyId, id, revision ?? null],
    );
    if (rows.length === 0) {
      throw new NotFoundError(revision === undefined ? `Attachment ${id}` : `Revision ${revision} of attachment ${id}`);
    }
    const row = rows[0];
    return {
      id: row.id,
      name: row.name,
      revision: row.revision,
      contentType: row.content_type,
      size: Number(row.size),
      sha256: row.sha256,
      storageKey: row.storage_key,
    };
  }

  /** The bytes of a revision found with `find`. */
  async open(revision: AttachmentRevision): Promise<Readable> {
    try {
      return await this.storage.get(revision.storageKey);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) {
        this.logger.error(`Attachment ${revision.id} revision ${revision.revision}: bytes missing at ${revision.storageKey}`);
      }
      throw error;
    }
  }

  /** Streams one file part to storage under a fresh key, counting, hashing and enforcing the limit. */
  private async store(companyId: string, part: MultipartFile): Promise<StoredFile> {
    // Listened to at once: the body may end badly while the pending row is being written.
    let sourceError: unknown;
    part.file.once('error', (error) => (sourceError ??= error));
    const name = cleanFileName(part.filename);
    if (name === '') {
      part.file.resume();
      throw badUpload('the file part needs a file name');
    }
    if (fileNameLength(name) > MAX_FILE_NAME_LENGTH) {
      part.file.resume();
      throw badUpload(`the file name must be at most ${MAX_FILE_NAME_LENGTH} characters`);
    }
    const contentType = cleanContentType(part.mimetype);
    const id = randomUUID();
    const key = `${companyId}/${id.slice(0, 2)}/${id}`;
    await this.db.query(`INSERT INTO pending_uploads (storage_key, company_id, started_at) VALUES ($1, $2, now())`, [key, companyId]);

    const meter = new UploadMeter(this.settings.maxBytes);
    const metered = pipeline(part.file, meter, () => undefined);
    try {
      await this.storage.put(key, metered, { contentType });
    } catch (error) {
      await this.discard(key);
      if (error instanceof UploadTooLargeError || meter.size > this.settings.maxBytes) {
        throw new ApiError('PayloadTooLarge', `The file is larger than the limit of ${this.settings.maxBytes} bytes`);
      }
      if (sourceError !== undefined || part.file.errored) {
        throw new ApiError('MalformedBody', 'The multipart body ended before the file was complete', {
          cause: sourceError ?? part.file.errored,
        });
      }
      throw error;
    }
    return { key, name, contentType, size: meter.size, sha256: meter.sha256() };
  }

  /** Metadata, revision number and ATTACHMENT_CREATED in one transaction; the pending row goes with it. */
  private async commit(companyId: string, endpoint: OwnerEndpoint, objectId: string, file: StoredFile): Promise<UploadedAttachment> {
    return this.db.transaction(async (tx) => {
      // queryRows, not tx.query: for a DELETE that answers [rows, rowCount], never empty, so a swept upload looked claimed.
      const claimed = await queryRows(tx, `DELETE FROM pending_uploads WHERE storage_key = $1 RETURNING 1`, [file.key]);
      if (claimed.length === 0) {
        // The sweeper judged this upload abandoned and deleted its bytes: it must not become visible.
        throw new ApiError('ServiceUnavailable', 'The upload took too long and was discarded; send it again', {
          headers: { 'retry-after': '1' },
        });
      }
      // Same name on the same object: the next revision of that attachment (the row lock orders
      // concurrent uploads of one name, so each gets its own number).
      const [attachment] = await tx.query<Array<{ id: string; revision: number }>>(
        `INSERT INTO attachments AS a (id, company_id, owner_endpoint, owner_id, name, latest_revision, created_at, last_modified_at)
         VALUES ($1, $2, $3, $4, $5, 1, now(), now())
         ON CONFLICT (company_id, owner_endpoint, owner_id, name)
         DO UPDATE SET latest_revision = a.latest_revision + 1, last_modified_at = now()
         RETURNING a.id, a.latest_revision AS revision`,
        [randomUUID(), companyId, endpoint, objectId, file.name],
      );
      await tx.query(
        `INSERT INTO attachment_revisions (attachment_id, revision, storage_key, content_type, size, sha256, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, now())`,
        [attachment.id, attachment.revision, file.key, file.contentType, file.size, file.sha256],
      );
      const uploaded: UploadedAttachment = {
        id: attachment.id,
        name: file.name,
        revision: attachment.revision,
        contentType: file.contentType,
        size: file.size,
        sha256: file.sha256,
      };
      await this.events.created(tx, companyId, { ...uploaded, endpoint, objectId });
      return uploaded;
    });
  }

  /** Deletes a rejected upload's bytes and its pending row; if storage fails, the sweeper retries. */
  private async discard(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
      await this.db.query(`DELETE FROM pending_uploads WHERE storage_key = $1`, [key]);
    } catch (error) {
      this.logger.warn(`Could not discard upload ${key} now; the orphan sweeper will: ${String(error)}`);
    }
  }
}

/**
 * The multipart parts, with parser failures (a malformed body, a missing boundary) turned into
 * 400s. Errors that already carry an HTTP status (the plugin's limits: 413) keep it.
 */
async function* readParts(parts: AsyncIterableIterator<Multipart>): AsyncGenerator<Multipart> {
  while (true) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (error) {
      if (typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
      throw new ApiError('MalformedBody', 'The multipart body could not be read', { cause: error });
    }
    if (next.done) return;
    yield next.value;
  }
}
