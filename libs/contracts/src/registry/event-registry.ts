import type { EventEnvelope } from '../envelope/event-envelope';
import { CustomerCreated } from '../events/customer-created';
import { CustomerUpdated } from '../events/customer-updated';
import { AttachmentCreated } from '../events/attachment-created';
import { SupplierInvoiceCreated } from '../events/supplier-invoice-created';
import { SupplierInvoiceUpdated } from '../events/supplier-invoice-updated';
import { SalesOrderCreated } from '../events/sales-order-created';
import { SalesOrderUpdated } from '../events/sales-order-updated';
import { SalesOrderDeleted } from '../events/sales-order-deleted';
import type { TopicName } from '../topics/topics';

/** What the registry knows of one event type: its topic and the class its `data` must satisfy. */
export interface EventDefinition {
  readonly TYPE: string;
  readonly TOPIC: TopicName;
  readonly Data: new () => object;
}

/**
 * Every event type of the system: type -> topic and data class. A service adds its events here
 * (one folder per event under src/events) and nowhere else; producers and consumers both look
 * them up here, so they cannot disagree on a topic or a payload.
 */
export const EVENT_REGISTRY = {
  [CustomerCreated.TYPE]: CustomerCreated,
  [CustomerUpdated.TYPE]: CustomerUpdated,
  [SupplierInvoiceCreated.TYPE]: SupplierInvoiceCreated,
  [SupplierInvoiceUpdated.TYPE]: SupplierInvoiceUpdated,
  [AttachmentCreated.TYPE]: AttachmentCreated,
  [SalesOrderCreated.TYPE]: SalesOrderCreated,
  [SalesOrderUpdated.TYPE]: SalesOrderUpdated,
  [SalesOrderDeleted.TYPE]: SalesOrderDeleted,
} as const satisfies Record<string, EventDefinition>;

export type EventRegistry = typeof EVENT_REGISTRY;
export type EventType = keyof EventRegistry;
/** The validated payload class of an event type. */
export type EventData<T extends EventType> = InstanceType<EventRegistry[T]['Data']>;
/** A typed envelope; with no argument, the union of every known event (narrow it on `type`). */
export type DomainEvent<T extends EventType = EventType> = { [K in T]: EventEnvelope<K, EventData<K>> }[T];

export const EVENT_TYPES = Object.keys(EVENT_REGISTRY) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_REGISTRY, value);
}

/** The topic an event type is published on. */
export function topicOf(type: EventType): TopicName {
  return EVENT_REGISTRY[type].TOPIC;
}

/** The event types published on a topic. */
export function eventTypesOf(topic: string): EventType[] {
  return EVENT_TYPES.filter((type) => EVENT_REGISTRY[type].TOPIC === topic);
}
