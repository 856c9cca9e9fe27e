import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { type AttachmentCreated, CustomerCreated, type DomainEvent, SupplierInvoiceCreated, TOPICS } from '@erp/contracts';
import { namedQuery } from '@erp/database';
import { ConsumeEvents, type EventHandlerContext } from '@erp/messaging';

type AttachmentOwnerEndpoint = AttachmentCreated.AttachmentOwnerEndpoint;

/** One consumer group for both owner topics. */
export const OWNERS_GROUP = 'attachments-v1.owners';

export type OwnerCreatedEvent = DomainEvent<typeof CustomerCreated.TYPE> | DomainEvent<typeof SupplierInvoiceCreated.TYPE>;

/** The owner an event announces: the endpoint and object id an upload path names. */
export function ownerOf(event: OwnerCreatedEvent): { endpoint: AttachmentOwnerEndpoint; objectId: string } {
  return event.type === 'CUSTOMER_CREATED'
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

  @ConsumeEvents({ topic: TOPICS.customers, groupId: OWNERS_GROUP, eventTypes: [CustomerCreated.TYPE] })
  async onCustomerCreated(event: DomainEvent<typeof CustomerCreated.TYPE>, { manager }: EventHandlerContext): Promise<void> {
    await this.record(manager, event);
  }

  @ConsumeEvents({ topic: TOPICS.supplierInvoices, groupId: OWNERS_GROUP, eventTypes: [SupplierInvoiceCreated.TYPE] })
  async onSupplierInvoiceCreated(
    event: DomainEvent<typeof SupplierInvoiceCreated.TYPE>,
    { manager }: EventHandlerContext,
  ): Promise<void> {
    await this.record(manager, event);
  }

  /** Runs in the consumer's transaction. Idempotent: a replayed event changes nothing. */
  private async record(tx: EntityManager, event: OwnerCreatedEvent): Promise<void> {
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
