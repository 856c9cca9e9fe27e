import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type AttachmentCreated, CustomerEvent, type SupplierInvoiceEvent } from '@erp/contracts';
import { namedQuery } from '@erp/database';

export type AttachmentOwnerEndpoint = AttachmentCreated.AttachmentOwnerEndpoint;

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
 * `attachment_owners`: the customers and supplier invoices this service knows exist, learned from
 * their created events or from their owner service's answer (`AttachmentOwners`). Records are
 * never deleted in the v1 API, so there is nothing to forget; a second learning of the same record
 * changes nothing.
 */
@Injectable()
export class AttachmentOwnersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async isKnown(companyId: string, endpoint: AttachmentOwnerEndpoint, objectId: string): Promise<boolean> {
    const rows = await namedQuery(
      this.db,
      `SELECT 1 FROM attachment_owners WHERE company_id = :companyId AND endpoint = :endpoint AND object_id = :objectId`,
      { companyId, endpoint, objectId },
    );
    return rows.length > 0;
  }

  /** From the owner's created event, in the event's transaction. */
  recordEvent(tx: EntityManager, event: OwnerCreatedEvent): Promise<void> {
    const { endpoint, objectId } = ownerOf(event);
    return this.record(tx, event.companyId, endpoint, objectId, event.time);
  }

  /** From the owner service's answer, before its event has arrived. */
  recordAnswer(companyId: string, endpoint: AttachmentOwnerEndpoint, objectId: string): Promise<void> {
    return this.record(this.db.manager, companyId, endpoint, objectId, new Date().toISOString());
  }

  private async record(manager: EntityManager, companyId: string, endpoint: AttachmentOwnerEndpoint, objectId: string, knownSince: string): Promise<void> {
    await namedQuery(
      manager,
      `INSERT INTO attachment_owners (company_id, endpoint, object_id, known_since)
       VALUES (:companyId, :endpoint, :objectId, :knownSince::timestamptz)
       ON CONFLICT (company_id, endpoint, object_id) DO NOTHING`,
      { companyId, endpoint, objectId, knownSince },
    );
  }
}
