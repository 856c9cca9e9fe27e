import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { AttachmentEvent } from '@erp/contracts';
import { namedQuery } from '@erp/database';

/**
 * Each invoice's `attachments [{ id, name, revision }]`, kept from ATTACHMENT_CREATED events,
 * whether they come from Kafka or straight from the attachments service (the internal
 * `attachment-events` call). Applying is idempotent and order-tolerant: a later revision of the
 * same attachment id replaces the earlier one; the same or an older revision changes nothing, so
 * the copy of an event that arrives second is a no-op. Attachments of other endpoints are ignored.
 * The invoice's own version and lastModifiedDateTime do not change: an attachment is not an edit
 * of the document, and a client's If-Match must not fail because a file was uploaded meanwhile.
 */
@Injectable()
export class InvoiceAttachmentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async record(manager: EntityManager, event: AttachmentEvent): Promise<void> {
    const { data } = event;
    if (data.endpoint !== 'supplierInvoice') return;
    await namedQuery(
      manager,
      `INSERT INTO supplier_invoice_attachments AS a (company_id, attachment_id, reference_number, name, revision, attached_at)
       VALUES (:companyId, :attachmentId, :referenceNumber, :name, :revision, :attachedAt::timestamptz)
       ON CONFLICT (company_id, attachment_id) DO UPDATE SET name = excluded.name, revision = excluded.revision
       WHERE a.revision < excluded.revision`,
      { companyId: event.companyId, attachmentId: data.id, referenceNumber: data.objectId, name: data.name, revision: data.revision, attachedAt: event.time },
    );
  }
}
