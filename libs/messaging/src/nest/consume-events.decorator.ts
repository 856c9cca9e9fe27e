import { SetMetadata } from '@nestjs/common';
import type { EventType } from '@erp/contracts';

export const CONSUME_EVENTS_METADATA = 'erp:consume-events';

export interface ConsumeEventsOptions {
  /** The topic as the contracts name it, e.g. `TOPICS.customers`. */
  topic: string;
  /** The consumer group, e.g. `sales-orders-v3.customer-snapshot`. */
  groupId: string;
  /** Only these event types reach the method (set it when the parameter type is narrower). */
  eventTypes?: readonly EventType[];
}

/**
 * Makes a provider method the handler of a topic in a consumer group. The method receives the
 * validated event and an `EventHandlerContext` whose `manager` is the transaction to write
 * through; it runs once per event id, and throwing makes it retried, then dead-lettered.
 *
 * ```ts
 * @ConsumeEvents({ topic: TOPICS.customers, groupId: 'sales-orders-v3.customer-snapshot' })
 * async onCustomer(event: DomainEvent<'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED'>, { manager }: EventHandlerContext) { ... }
 * ```
 */
export const ConsumeEvents = (options: ConsumeEventsOptions): MethodDecorator =>
  SetMetadata(CONSUME_EVENTS_METADATA, options);
