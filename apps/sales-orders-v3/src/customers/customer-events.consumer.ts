import { Injectable } from '@nestjs/common';
import { type DomainEvent, TOPICS } from '@erp/contracts';
import { ConsumeEvents, type EventHandlerContext } from '@erp/messaging';
import { CustomerSnapshotsService } from './customer-snapshots.service';

export const CUSTOMER_SNAPSHOT_GROUP = 'sales-orders-v3.customer-snapshot';

/**
 * Keeps the customer snapshot from the customer events. Runs once per event id (the messaging
 * library records it in the same transaction as the snapshot write); a failure is retried and
 * then dead-lettered, never skipped. Out-of-order events are harmless: the snapshot keeps the
 * highest customer version it has seen.
 */
@Injectable()
export class CustomerEventsConsumer {
  constructor(private readonly snapshots: CustomerSnapshotsService) {}

  @ConsumeEvents({ topic: TOPICS.customers, groupId: CUSTOMER_SNAPSHOT_GROUP, eventTypes: ['CUSTOMER_CREATED', 'CUSTOMER_UPDATED'] })
  async onCustomer(event: DomainEvent<'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED'>, { manager }: EventHandlerContext): Promise<void> {
    await this.snapshots.apply(manager, event.companyId, event.data);
  }
}
