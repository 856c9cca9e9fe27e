import type { EventType } from '@erp/contracts';

/**
 * The extras every `@EventPattern(topic, extras)` of the Kafka event transport carries:
 *
 * ```ts
 * @EventPattern(TOPICS.customers, { groupId: 'sales-orders-v3.customer-snapshot' } satisfies EventPatternExtras)
 * async onCustomer(@Payload() event: CustomerEvent, @Ctx() context: KafkaEventContext) { ... }
 * ```
 */
export interface EventPatternExtras {
  /** The consumer group (the inbox's key; prefixed with `KAFKA_TOPIC_PREFIX` on the cluster). */
  groupId: string;
  /**
   * Only these event types reach the method; the others of the topic are acknowledged without
   * calling it. Default: every type of the topic.
   */
  eventTypes?: readonly EventType[];
}

/** The extras of one handler, checked: a handler without a group is a start-up error, not a silent no-op. */
export function eventPatternExtrasOf(pattern: string, extras: Record<string, unknown> | undefined): EventPatternExtras {
  const groupId = extras?.['groupId'];
  if (typeof groupId !== 'string' || groupId.length === 0) {
    throw new Error(`@EventPattern('${pattern}') needs { groupId } in its extras for the Kafka event transport`);
  }
  const eventTypes = extras?.['eventTypes'];
  if (eventTypes !== undefined && !Array.isArray(eventTypes)) {
    throw new Error(`@EventPattern('${pattern}'): eventTypes must be an array of event types`);
  }
  return { groupId, eventTypes: eventTypes as EventType[] | undefined };
}
