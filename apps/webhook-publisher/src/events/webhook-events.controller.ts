import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import {
  AttachmentEvent,
  CustomerEvent,
  type EventType,
  eventTypesOf,
  SalesOrderEvent,
  SupplierInvoiceEvent,
  TOPICS,
} from '@erp/contracts';
import { type EventPatternExtras, KafkaEventContext } from '@erp/messaging';
import { publisherOf } from '../publishers/publishers';
import { ingestEvent } from './event-intake';

export const CONSUMER_GROUP = 'webhook-publisher.deliveries';

/** The topics whose events become webhooks: sales orders v3 and the v1 financial records. */
export const CONSUMED_TOPICS = [TOPICS.salesOrders, TOPICS.customers, TOPICS.supplierInvoices, TOPICS.attachments];

/** The group, and the types of the topic that some publisher delivers (the others are not ingested). */
function deliveredFrom(topic: string): EventPatternExtras {
  return { groupId: CONSUMER_GROUP, eventTypes: eventTypesOf(topic).filter((type): type is EventType => publisherOf(type) !== undefined) };
}

/**
 * Wires the intake to Kafka: one consumer group over the four topics, each event handled once
 * (processed-events record in the same transaction as the delivery rows), retried and then
 * dead-lettered if it keeps failing. The intake itself (`ingestEvent`) knows nothing about Kafka.
 * Registered only where `WEBHOOKS_CONSUMER` is on (see the app module).
 */
// Events, not HTTP: kept out of the OpenAPI document (Swagger would list the payload DTOs as schemas).
@ApiExcludeController()
@Controller()
export class WebhookEventsController {
  @EventPattern<string>(TOPICS.salesOrders, deliveredFrom(TOPICS.salesOrders))
  async onSalesOrder(@Payload() event: SalesOrderEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await ingestEvent(context.getManager(), event);
  }

  @EventPattern<string>(TOPICS.customers, deliveredFrom(TOPICS.customers))
  async onCustomer(@Payload() event: CustomerEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await ingestEvent(context.getManager(), event);
  }

  @EventPattern<string>(TOPICS.supplierInvoices, deliveredFrom(TOPICS.supplierInvoices))
  async onSupplierInvoice(@Payload() event: SupplierInvoiceEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await ingestEvent(context.getManager(), event);
  }

  @EventPattern<string>(TOPICS.attachments, deliveredFrom(TOPICS.attachments))
  async onAttachment(@Payload() event: AttachmentEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await ingestEvent(context.getManager(), event);
  }
}
