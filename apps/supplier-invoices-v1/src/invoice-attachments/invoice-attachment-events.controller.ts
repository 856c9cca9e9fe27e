import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { AttachmentEvent, TOPICS } from '@erp/contracts';
import { namedQuery } from '@erp/database';
import { type EventPatternExtras, KafkaEventContext } from '@erp/messaging';

export const INVOICE_ATTACHMENTS_GROUP = 'supplier-invoices-v1.invoice-attachments';

/**
 * Keeps each invoice's `attachments [{ id, name, revision }]` from ATTACHMENT_CREATED events.
 * Runs in the event's transaction (with its processed-event record), so an event is applied
 * exactly once. A later revision of the same attachment id replaces the earlier one; an older
 * revision arriving late changes nothing. Attachments of other endpoints (customers) are ignored.
 * The invoice's own version and lastModifiedDateTime do not change: an attachment is not an edit
 * of the document, and a client's If-Match must not fail because a file was uploaded meanwhile.
 */
// Events, not HTTP: kept out of the OpenAPI document (Swagger would list the payload DTOs as schemas).
@ApiExcludeController()
@Controller()
export class InvoiceAttachmentEventsController {
  @EventPattern<string>(TOPICS.attachments, { groupId: INVOICE_ATTACHMENTS_GROUP } satisfies EventPatternExtras)
  async onAttachmentCreated(@Payload() event: AttachmentEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    const { data } = event;
    if (data.endpoint !== 'supplierInvoice') return;
    await namedQuery(
      context.getManager(),
      `INSERT INTO supplier_invoice_attachments AS a (company_id, attachment_id, reference_number, name, revision, attached_at)
       VALUES (:companyId, :attachmentId, :referenceNumber, :name, :revision, :attachedAt::timestamptz)
       ON CONFLICT (company_id, attachment_id) DO UPDATE SET name = excluded.name, revision = excluded.revision
       WHERE a.revision < excluded.revision`,
      { companyId: event.companyId, attachmentId: data.id, referenceNumber: data.objectId, name: data.name, revision: data.revision, attachedAt: event.time },
    );
  }
}
