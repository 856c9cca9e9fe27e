import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { AttachmentEvent, TOPICS } from '@erp/contracts';
import { type EventPatternExtras, KafkaEventContext } from '@erp/messaging';
import { InvoiceAttachmentsRepository } from './invoice-attachments.repository';

export const INVOICE_ATTACHMENTS_GROUP = 'supplier-invoices-v1.invoice-attachments';

/**
 * Keeps each invoice's attachment list from ATTACHMENT_CREATED events (see
 * `InvoiceAttachmentsRepository`), in the event's transaction with its processed-event record.
 */
// Events, not HTTP: kept out of the OpenAPI document (Swagger would list the payload DTOs as schemas).
@ApiExcludeController()
@Controller()
export class InvoiceAttachmentEventsController {
  constructor(private readonly attachments: InvoiceAttachmentsRepository) {}

  @EventPattern<string>(TOPICS.attachments, { groupId: INVOICE_ATTACHMENTS_GROUP } satisfies EventPatternExtras)
  async onAttachmentCreated(@Payload() event: AttachmentEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await this.attachments.record(context.getManager(), event);
  }
}
