import { Inject, Injectable, Logger } from '@nestjs/common';
import { type AttachmentCreated, CustomerEventData, type DomainEvent, INTERNAL_ROUTES, SupplierInvoiceEventData } from '@erp/contracts';
import type { InternalApiClient } from '@erp/internal-api';
import type { AttachmentOwnerEndpoint } from './attachment-owners.repository';

/** The clients of customers-v1's and supplier-invoices-v1's internal APIs (provided by the app module). */
export const CUSTOMERS_API = Symbol('CUSTOMERS_API');
export const SUPPLIER_INVOICES_API = Symbol('SUPPLIER_INVOICES_API');

/**
 * The services that own the records attachments hang on, over their internal APIs
 * (docs/cross-service-reads.md): asked whether a record exists when its created event has not
 * arrived here yet, and told of a new upload where they show a record's attachments.
 */
@Injectable()
export class OwnerServices {
  private readonly logger = new Logger(OwnerServices.name);

  constructor(
    @Inject(CUSTOMERS_API) private readonly customers: InternalApiClient,
    @Inject(SUPPLIER_INVOICES_API) private readonly invoices: InternalApiClient,
  ) {}

  /** Whether the owner service has the record for the company; a 503 when it cannot be asked. */
  async exists(companyId: string, endpoint: AttachmentOwnerEndpoint, objectId: string): Promise<boolean> {
    const answer =
      endpoint === 'customer'
        ? await this.customers.read(companyId, INTERNAL_ROUTES.customer.path(objectId), CustomerEventData)
        : await this.invoices.read(companyId, INTERNAL_ROUTES.supplierInvoice.path(objectId), SupplierInvoiceEventData);
    return answer.found;
  }

  /**
   * Hands a committed upload's ATTACHMENT_CREATED to the owner that lists a record's attachments
   * (supplier invoices; customers show none), so a read of the invoice right after the 201 shows
   * it. The upload stands either way: if the owner cannot be told now, Kafka brings the event.
   */
  async announce(event: DomainEvent<typeof AttachmentCreated.TYPE>): Promise<void> {
    if (event.data.endpoint !== 'supplierInvoice') return;
    try {
      await this.invoices.send(event.companyId, INTERNAL_ROUTES.attachmentEvents.path, event);
    } catch (error) {
      this.logger.warn(`supplier invoice ${event.data.objectId} lists attachment ${event.data.id} once its event arrives: ${String(error)}`);
    }
  }
}
