import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { NotFoundError } from '@erp/errors';
import { OBJECT_STORAGE, ObjectNotFoundError, type ObjectStorage } from '../../storage/object-storage';
import { type AttachmentRevision, AttachmentsRepository } from '../repository/attachments.repository';

/**
 * GET /v1/attachment/{id}[?revision=N]: the revision's metadata (404 when absent or another
 * company's) and its bytes as a stream from storage; the controller renders the representation.
 */
@Injectable()
export class DownloadAttachment {
  private readonly logger = new Logger(DownloadAttachment.name);

  constructor(
    private readonly attachments: AttachmentsRepository,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
  ) {}

  /** The latest revision, or `revision`. */
  async execute(companyId: string, id: string, revision: number | undefined): Promise<{ attachment: AttachmentRevision; bytes: Readable }> {
    const attachment = await this.attachments.findRevision(companyId, id, revision);
    if (!attachment) {
      throw new NotFoundError(revision === undefined ? `Attachment ${id}` : `Revision ${revision} of attachment ${id}`);
    }
    return { attachment, bytes: await this.open(attachment) };
  }

  private async open(attachment: AttachmentRevision): Promise<Readable> {
    try {
      return await this.storage.get(attachment.storageKey);
    } catch (error) {
      // Metadata without bytes should never happen (the upload commits after its bytes): worth an alarm.
      if (error instanceof ObjectNotFoundError) {
        this.logger.error(`Attachment ${attachment.id} revision ${attachment.revision}: bytes missing at ${attachment.storageKey}`);
      }
      throw error;
    }
  }
}
