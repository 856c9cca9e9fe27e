import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream';
import { AttachmentCreated, type DomainEvent } from '@erp/contracts';
import { ApiError, NotFoundError, ValidationFailedError } from '@erp/errors';
import { currentKeyedRequest, whenCommitted } from '@erp/idempotency';
import { AttachmentEvents } from '../../events/attachment-events';
import { AttachmentOwners } from '../../owners/attachment-owners';
import { OwnerServices } from '../../owners/owner-services';
import { OBJECT_STORAGE, type ObjectStorage } from '../../storage/object-storage';
import { cleanContentType, cleanFileName, fileNameLength, MAX_FILE_NAME_LENGTH } from '../file-name';
import { type AttachmentOwner, type AttachmentRevision, AttachmentsRepository, type StoredFile } from '../repository/attachments.repository';
import { UploadMeter, UploadTooLargeError } from '../upload-meter';

export const ATTACHMENT_SETTINGS = Symbol('ATTACHMENT_SETTINGS');
export interface AttachmentSettings {
  maxBytes: number;
}

/** The upload's answer: `{ id, name, revision, contentType, size, sha256 }`. */
export type UploadedAttachment = Omit<AttachmentRevision, 'storageKey'>;

/** Busboy's limits for one upload's body. */
export interface UploadLimits {
  fileSize: number;
  files: number;
  fields: number;
  parts: number;
  fieldSize: number;
  headerPairs: number;
}

/**
 * A multipart/form-data body as the controller hands it over: the use case decides the limits
 * and reads the parts as they arrive, so the file streams to storage without being buffered.
 */
export interface MultipartBody {
  parts(limits: UploadLimits): AsyncIterableIterator<Multipart>;
  /** Reads and drops the rest of the body, so the client can finish sending and read the answer. */
  discardRest(): void;
}

const FILE_FIELD = 'file';

function badUpload(message: string): ValidationFailedError {
  return ValidationFailedError.of(FILE_FIELD, message);
}

/**
 * POST /v1/{endpoint}/{objectId}/Attachment. The bytes go to object storage first, under a fresh
 * key that a `pending_uploads` row (committed before the first byte) names; the metadata, the
 * revision number and the ATTACHMENT_CREATED outbox row then commit in one transaction that also
 * deletes the pending row. So an attachment is visible only once its bytes are complete, a
 * rejected or failed upload deletes what it wrote, and bytes left by a crash between the two
 * steps keep their pending row, from which the orphan sweeper deletes them.
 */
@Injectable()
export class UploadAttachment {
  private readonly logger = new Logger(UploadAttachment.name);

  constructor(
    private readonly attachments: AttachmentsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(ATTACHMENT_SETTINGS) private readonly settings: AttachmentSettings,
    private readonly owners: AttachmentOwners,
    private readonly ownerServices: OwnerServices,
    private readonly events: AttachmentEvents,
  ) {}

  async execute(owner: AttachmentOwner, body: MultipartBody): Promise<UploadedAttachment> {
    const { companyId, endpoint, objectId } = owner;
    if (!(await this.owners.exists(companyId, endpoint, objectId))) {
      throw new NotFoundError(`${endpoint === 'customer' ? 'Customer' : 'Supplier invoice'} ${objectId}`);
    }
    let stored: StoredFile | undefined;
    try {
      const parts = body.parts({
        // One more byte than allowed reaches the meter, which then fails the upload (413).
        fileSize: this.settings.maxBytes + 1,
        files: 2,
        fields: 10,
        parts: 12,
        fieldSize: 64 * 1024,
        headerPairs: 20,
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
      // A keyed upload's body is the file it streamed: the same key with another file is another request.
      currentKeyedRequest()?.streamedBody(`${stored.sha256} ${stored.size} ${stored.name} ${stored.contentType}`);
      const { uploaded, event } = await this.commit(owner, stored);
      // Before the 201, once committed: the owner's read of the record then lists this upload (its
      // event comes later); never of an upload a keyed request's answer may yet roll back.
      await whenCommitted(() => this.ownerServices.announce(event));
      return uploaded;
    } catch (error) {
      if (stored) await this.discard(stored.key);
      body.discardRest();
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
    await this.attachments.addPending(companyId, key);

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
  private commit(owner: AttachmentOwner, file: StoredFile): Promise<{ uploaded: UploadedAttachment; event: DomainEvent<typeof AttachmentCreated.TYPE> }> {
    return this.attachments.transaction(async (tx) => {
      if (!(await this.attachments.claimPending(tx, file.key))) {
        // The sweeper deleted this upload's bytes: it must not become visible.
        throw new ApiError('ServiceUnavailable', 'The upload took too long and was discarded; send it again', {
          headers: { 'retry-after': '1' },
        });
      }
      // Same name on the same object: the next revision of that attachment.
      const attachment = await this.attachments.nextRevision(tx, randomUUID(), owner, file.name);
      await this.attachments.insertRevision(tx, attachment, file);
      const uploaded: UploadedAttachment = {
        id: attachment.id,
        name: file.name,
        revision: attachment.revision,
        contentType: file.contentType,
        size: file.size,
        sha256: file.sha256,
      };
      const event = await this.events.add(tx, AttachmentCreated.TYPE, { companyId: owner.companyId, ...uploaded, endpoint: owner.endpoint, objectId: owner.objectId });
      return { uploaded, event };
    });
  }

  /** Deletes a rejected upload's bytes and its pending row; if storage fails, the sweeper retries. */
  private async discard(key: string): Promise<void> {
    try {
      await this.storage.delete(key);
      await this.attachments.deletePending(key);
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
