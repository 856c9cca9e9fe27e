import { Injectable } from '@nestjs/common';
import type { AttachmentEvent } from '@erp/contracts';
import { ValidationFailedError } from '@erp/errors';
import { InvoiceAttachmentsRepository } from '../invoice-attachments.repository';

/**
 * POST /internal/v1/attachment-events (the attachments service, right after an upload commits):
 * the ATTACHMENT_CREATED event applied now, so the invoice lists the upload before its 201 reaches
 * the client. The same event arrives later from Kafka and changes nothing then.
 */
@Injectable()
export class ReceiveAttachmentEvent {
  constructor(private readonly attachments: InvoiceAttachmentsRepository) {}

  async execute(companyId: string, event: AttachmentEvent): Promise<void> {
    // The call is for one company (its service token's); an event of another is not this call's.
    if (event.companyId !== companyId) throw ValidationFailedError.of('companyId', 'must be the company of the call (ipp-company-id)');
    await this.attachments.transaction((tx) => this.attachments.record(tx, event));
  }
}
