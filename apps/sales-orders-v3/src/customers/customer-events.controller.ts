import { Controller } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { ApiExcludeController } from '@nestjs/swagger';
import { CustomerEvent, TOPICS } from '@erp/contracts';
import { type EventPatternExtras, KafkaEventContext } from '@erp/messaging';
import { CustomerSnapshotsService } from './customer-snapshots.service';

export const CUSTOMER_SNAPSHOT_GROUP = 'sales-orders-v3.customer-snapshot';

/**
 * Keeps the customer snapshot from the customer events. Runs once per event id (the transport
 * records it in the same transaction as the snapshot write); a failure is retried and then
 * dead-lettered, never skipped. Out-of-order events are harmless: the snapshot keeps the highest
 * customer version it has seen.
 */
// Events, not HTTP: kept out of the OpenAPI document (Swagger would list the payload DTOs as schemas).
@ApiExcludeController()
@Controller()
export class CustomerEventsController {
  constructor(private readonly snapshots: CustomerSnapshotsService) {}

  @EventPattern<string>(TOPICS.customers, { groupId: CUSTOMER_SNAPSHOT_GROUP } satisfies EventPatternExtras)
  async onCustomer(@Payload() event: CustomerEvent, @Ctx() context: KafkaEventContext): Promise<void> {
    await this.snapshots.apply(context.getManager(), event.companyId, event.data);
  }
}
