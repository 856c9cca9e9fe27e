import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AttachmentCreated, type DomainEvent } from '@erp/contracts';
import { type EventProducer, Outbox } from '@erp/messaging';

export type AttachmentEventType = typeof AttachmentCreated.TYPE;

/** An upload as its event describes it: the company and the attachment's data but its link. */
export interface AttachmentChange extends Omit<AttachmentCreated.Data, 'link'> {
  companyId: string;
}

/** ATTACHMENT_CREATED, added to the outbox in the upload's metadata transaction. */
@Injectable()
export class AttachmentEvents implements EventProducer<AttachmentEventType, AttachmentChange> {
  constructor(private readonly outbox: Outbox) {}

  add(tx: EntityManager, type: AttachmentEventType, change: AttachmentChange): Promise<DomainEvent<AttachmentEventType>> {
    const { companyId, ...data } = change;
    return this.outbox.add(tx, {
      type,
      companyId,
      // The owner is the aggregate: its attachments' events (revisions included) stay in order.
      subject: `${data.endpoint}/${data.objectId}`,
      data: { ...data, link: AttachmentCreated.attachmentLink(data.id, data.revision) },
    });
  }
}
