import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttachmentCreated, type DomainEvent } from '@erp/contracts';
import { Outbox } from '@erp/messaging';

/** ATTACHMENT_CREATED, added to the outbox in the upload's metadata transaction. */
@Injectable()
export class AttachmentEvents {
  constructor(private readonly outbox: Outbox) {}

  created(tx: EntityManager, companyId: string, data: Omit<AttachmentCreated.Data, 'link'>): Promise<DomainEvent<typeof AttachmentCreated.TYPE>> {
    return this.outbox.add(tx, {
      type: AttachmentCreated.TYPE,
      companyId,
      // The owner is the aggregate: its attachments' events (revisions included) stay in order.
      subject: `${data.endpoint}/${data.objectId}`,
      data: { ...data, link: AttachmentCreated.attachmentLink(data.id, data.revision) },
    });
  }
}
