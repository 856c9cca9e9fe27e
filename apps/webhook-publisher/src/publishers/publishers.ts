import { eventDataSchema, type EventType, type JsonSchema } from '@erp/contracts';

/** The two publishers, named exactly as the specification names them. */
export const SALES_ORDER_PUBLISHER = 'vendor.net.erp.salesorderservice-publisher';
export const FINANCIALS_PUBLISHER = 'vendornetfinancials-publisher';
export const PUBLISHER_NAMES = [SALES_ORDER_PUBLISHER, FINANCIALS_PUBLISHER] as const;
export type PublisherName = (typeof PUBLISHER_NAMES)[number];

export interface EventTypeDescription {
  type: EventType;
  description: string;
  /** JSON Schema (2020-12) of the delivery body of this type. */
  schema: JsonSchema;
}

export interface PublisherDescription {
  name: PublisherName;
  description: string;
  eventTypes: EventTypeDescription[];
}

/**
 * The delivery body schema: the common envelope with this type's `data`. `data` is derived from
 * the type's contract class (@erp/contracts), the one the events are validated with, so the
 * catalog cannot promise receivers anything the events do not keep.
 */
function deliverySchema(type: EventType, publisher: PublisherName): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: type,
    type: 'object',
    required: ['id', 'type', 'publisher', 'companyId', 'timestamp', 'data'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Event id; also sent as webhook-id. Deduplicate on it.' },
      type: { const: type },
      publisher: { const: publisher },
      companyId: { type: 'string' },
      timestamp: { type: 'string', format: 'date-time', description: 'When the change happened.' },
      data: eventDataSchema(type),
    },
  };
}

function eventType(type: EventType, publisher: PublisherName, description: string): EventTypeDescription {
  return { type, description, schema: deliverySchema(type, publisher) };
}

/** The catalog `GET /api/webhooks/publishers` answers with. */
export const PUBLISHERS: readonly PublisherDescription[] = [
  {
    name: SALES_ORDER_PUBLISHER,
    description: 'Sales orders (v3). The only publisher for /api/v3/SalesOrders.',
    eventTypes: [
      eventType('SALESORDER_CREATED', SALES_ORDER_PUBLISHER, 'A sales order was created.'),
      eventType('SALESORDER_UPDATED', SALES_ORDER_PUBLISHER, 'A sales order was changed; data is the order after the change.'),
      eventType('SALESORDER_DELETED', SALES_ORDER_PUBLISHER, 'A sales order was deleted; link answers 404 from now on.'),
    ],
  },
  {
    name: FINANCIALS_PUBLISHER,
    description: 'The v1 financial records. Sales order versions 1 and 2 belong to it; v3 sales orders do not.',
    eventTypes: [
      eventType('CUSTOMER_CREATED', FINANCIALS_PUBLISHER, 'A customer was created.'),
      eventType('CUSTOMER_UPDATED', FINANCIALS_PUBLISHER, 'A customer was changed.'),
      eventType('SUPPLIERINVOICE_CREATED', FINANCIALS_PUBLISHER, 'A supplier invoice was created.'),
      eventType('SUPPLIERINVOICE_UPDATED', FINANCIALS_PUBLISHER, 'A supplier invoice was changed.'),
      eventType('ATTACHMENT_CREATED', FINANCIALS_PUBLISHER, 'A file (or a new revision of one) was attached to a record.'),
    ],
  },
];

const PUBLISHER_OF = new Map<string, PublisherName>(
  PUBLISHERS.flatMap((p) => p.eventTypes.map((t) => [t.type, p.name] as const)),
);

/** The publisher that delivers an event type, or undefined for a type no webhook carries. */
export function publisherOf(type: string): PublisherName | undefined {
  return PUBLISHER_OF.get(type);
}

/**
 * Why `publisher` cannot deliver `type`, or undefined when it can. The v3 sales order events ask
 * for the v3 publisher by name: the financials publisher serves sales order versions 1 and 2 only.
 */
export function eventTypeProblem(publisher: PublisherName, type: string): string | undefined {
  const owner = publisherOf(type);
  if (owner === publisher) return undefined;
  if (owner === SALES_ORDER_PUBLISHER) {
    return `${type} is a v3 sales order event: subscribe with publisher ${SALES_ORDER_PUBLISHER}; ${FINANCIALS_PUBLISHER} serves sales order versions 1 and 2 only`;
  }
  if (owner) return `${type} is published by ${owner}, not ${publisher}`;
  const known = PUBLISHERS.find((p) => p.name === publisher)?.eventTypes.map((t) => t.type) ?? [];
  return `unknown event type ${type}; ${publisher} publishes ${known.join(', ')}`;
}
