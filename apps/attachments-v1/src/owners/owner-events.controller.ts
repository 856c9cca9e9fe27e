import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { CustomerCreated, CustomerEvent, SupplierInvoiceCreated, SupplierInvoiceEvent, TOPICS } from '@erp/contracts';
import { type EventPatternExtras, KafkaEventContext } from '@erp/messaging';
import { AttachmentOwnersRepository } from './attachment-owners.repository';

/** One consumer group for both owner topics. */
export const OWNERS_GROUP = 'attachments-v1.owners';

/** Learns the records that may own attachments from their created events (see `AttachmentOwnersRepository`). */
// Events, not HTTP: kept out of the OpenAPI document (Swagger would list the payload DTOs as schemas).
@ApiExcludeController()
@Controller()
export class OwnerEventsController {
  constructor(private readonly owners: AttachmentOwnersRepository) {}

  @EventPattern<string>(TOPICS.customers, { groupId: OWNERS_GROUP, eventTypes: [CustomerCreated.TYPE] } satisfies EventPatternExtras)
  async onCustomerCreated(@Payload() event: CustomerEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await this.owners.recordEvent(context.getManager(), event);
  }

  @EventPattern<string>(TOPICS.supplierInvoices, { groupId: OWNERS_GROUP, eventTypes: [SupplierInvoiceCreated.TYPE] } satisfies EventPatternExtras)
  async onSupplierInvoiceCreated(@Payload() event: SupplierInvoiceEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await this.owners.recordEvent(context.getManager(), event);
  }
}
