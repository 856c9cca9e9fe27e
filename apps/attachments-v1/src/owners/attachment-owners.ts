import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type AttachmentCreated, CustomerEvent, type SupplierInvoiceEvent } from '@erp/contracts';
import { namedQuery } from '@erp/database';

type AttachmentOwnerEndpoint = AttachmentCreated.AttachmentOwnerEndpoint;

/** A created event of a record that may own attachments (see `OwnerEventsController`). */
export type OwnerCreatedEvent = CustomerEvent | SupplierInvoiceEvent;

/** The owner an event announces: the endpoint and object id an upload path names. */
export function ownerOf(event: OwnerCreatedEvent): { endpoint: AttachmentOwnerEndpoint; objectId: string } {
  // The events arrive as the payload pipe's DTO instances.
  return event instanceof CustomerEvent
    ? { endpoint: 'customer', objectId: event.data.number }
    : { endpoint: 'supplierInvoice', objectId: event.data.referenceNumber };
}

/**
 * Which records may own attachments. The attachments service never calls the owning services:
 * it learns each customer and supplier invoice from its created event (CUSTOMER_CREATED,
 * SUPPLIERINVOICE_CREATED), kept in `attachment_owners`, and checks uploads against that table.
 * Records are never deleted in the v1 API, so there is nothing to forget.
 */
@Injectable()
export class AttachmentOwners {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async exists(companyId: string, endpoint: AttachmentOwnerEndpoint, objectId: string): Promise<boolean> {
    const rows = await namedQuery(
      this.db,
      `SELECT 1 FROM attachment_owners WHERE company_id = :companyId AND endpoint = :endpoint AND object_id = :objectId`,
      { companyId, endpoint, objectId },
    );
    return rows.length > 0;
  }

  /** Runs in the event's transaction. Idempotent: a replayed event changes nothing. */
  async record(tx: EntityManager, event: OwnerCreatedEvent): Promise<void> {
    const { endpoint, objectId } = ownerOf(event);
    await namedQuery(
      tx,
      `INSERT INTO attachment_owners (company_id, endpoint, object_id, known_since)
       VALUES (:companyId, :endpoint, :objectId, :knownSince::timestamptz)
       ON CONFLICT (company_id, endpoint, object_id) DO NOTHING`,
      { companyId: event.companyId, endpoint, objectId, knownSince: event.time },
    );
  }
}
