import { type EventType, eventTypesOf } from '../registry/event-registry';
import { TOPICS, type TopicName } from '../topics/topics';

/** The services that send or receive events (the apps' names). */
export type EventService = 'customers-v1' | 'supplier-invoices-v1' | 'attachments-v1' | 'sales-orders-v3' | 'webhook-publisher';

/**
 * The one service that sends each topic's events (through its outbox): the envelope's `source`.
 * A lib cannot import the apps, so who sends and who receives is declared here, and each app's
 * tests hold its handlers and producers to it (`event-participants` specs in the apps).
 */
export const TOPIC_PRODUCERS: { readonly [T in TopicName]: EventService } = {
  [TOPICS.customers]: 'customers-v1',
  [TOPICS.supplierInvoices]: 'supplier-invoices-v1',
  [TOPICS.attachments]: 'attachments-v1',
  [TOPICS.salesOrders]: 'sales-orders-v3',
};

/** One `@EventPattern` handler of a service: its consumer group, its topic and the types it takes. */
export interface EventConsumer {
  service: EventService;
  /** The consumer group (the inbox key; `KAFKA_TOPIC_PREFIX` goes in front of it on the cluster). */
  groupId: string;
  topic: TopicName;
  /** The types the handler is called for; the topic's other types are acknowledged unread. */
  eventTypes: readonly EventType[];
  /** What the service does with the events, for the AsyncAPI document's readers. */
  description: string;
}

const everyTypeOf = (topic: TopicName): EventType[] => eventTypesOf(topic);

/** Every consumer of the system, as the apps' handlers declare them (checked by the apps' tests). */
export const EVENT_CONSUMERS: readonly EventConsumer[] = [
  {
    service: 'sales-orders-v3',
    groupId: 'sales-orders-v3.customer-snapshot',
    topic: TOPICS.customers,
    eventTypes: everyTypeOf(TOPICS.customers),
    description: 'Keeps the customer snapshot orders are checked against (status, name), the highest version winning.',
  },
  {
    service: 'attachments-v1',
    groupId: 'attachments-v1.owners',
    topic: TOPICS.customers,
    eventTypes: ['CUSTOMER_CREATED'],
    description: 'Learns the customers that may own attachments.',
  },
  {
    service: 'attachments-v1',
    groupId: 'attachments-v1.owners',
    topic: TOPICS.supplierInvoices,
    eventTypes: ['SUPPLIERINVOICE_CREATED'],
    description: 'Learns the supplier invoices that may own attachments.',
  },
  {
    service: 'supplier-invoices-v1',
    groupId: 'supplier-invoices-v1.invoice-attachments',
    topic: TOPICS.attachments,
    eventTypes: everyTypeOf(TOPICS.attachments),
    description: "Keeps each invoice's attachment list.",
  },
  ...([TOPICS.salesOrders, TOPICS.customers, TOPICS.supplierInvoices, TOPICS.attachments] as const).map(
    (topic): EventConsumer => ({
      service: 'webhook-publisher',
      groupId: 'webhook-publisher.deliveries',
      topic,
      eventTypes: everyTypeOf(topic),
      description: 'Turns the events into signed webhook deliveries to the subscriptions of the company.',
    }),
  ),
];

/** The consumers of one service, in the declared order. */
export function eventConsumersOf(service: EventService): EventConsumer[] {
  return EVENT_CONSUMERS.filter((consumer) => consumer.service === service);
}

/** The topics a service sends. */
export function topicsProducedBy(service: EventService): TopicName[] {
  return (Object.keys(TOPIC_PRODUCERS) as TopicName[]).filter((topic) => TOPIC_PRODUCERS[topic] === service);
}
