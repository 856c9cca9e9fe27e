import {
  CUSTOMER_STATUSES,
  type EventType,
  SALES_ORDER_STATUSES,
  SUPPLIER_INVOICE_DOCUMENT_TYPES,
  SUPPLIER_INVOICE_STATUSES,
} from '@erp/contracts';

/** The two publishers, named exactly as the specification names them. */
export const SALES_ORDER_PUBLISHER = 'vendor.net.erp.salesorderservice-publisher';
export const FINANCIALS_PUBLISHER = 'vendornetfinancials-publisher';
export const PUBLISHER_NAMES = [SALES_ORDER_PUBLISHER, FINANCIALS_PUBLISHER] as const;
export type PublisherName = (typeof PUBLISHER_NAMES)[number];

type JsonSchema = Record<string, unknown>;

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

const VERSION = { type: 'string', pattern: '^[0-9]{1,19}$', description: 'The record version after the change (its ETag value).' };
const V1_TIMESTAMP = { type: 'string', description: 'UTC to the millisecond, without zone, e.g. 2025-01-31T09:15:00.123' };

const SALES_ORDER_DATA: JsonSchema = {
  type: 'object',
  required: ['type', 'orderId', 'customerId', 'status', 'version', 'link'],
  properties: {
    type: { type: 'string', pattern: '^[A-Z]{2}$', description: 'Order type, e.g. SO.' },
    orderId: { type: 'string', maxLength: 15 },
    customerId: { type: 'string', maxLength: 30 },
    status: { enum: [...SALES_ORDER_STATUSES] },
    version: VERSION,
    link: { type: 'string', description: '/api/v3/SalesOrders/<type>/<orderId>' },
  },
};

const CUSTOMER_DATA: JsonSchema = {
  type: 'object',
  required: ['number', 'name', 'status', 'currencyId', 'version', 'lastModifiedDateTime', 'link'],
  properties: {
    number: { type: 'string', maxLength: 30 },
    name: { type: 'string', maxLength: 255 },
    status: { enum: [...CUSTOMER_STATUSES] },
    currencyId: { type: ['string', 'null'], pattern: '^[A-Z]{3}$' },
    version: VERSION,
    lastModifiedDateTime: V1_TIMESTAMP,
    link: { type: 'string', description: '/v1/customer/<number>' },
  },
};

const SUPPLIER_INVOICE_DATA: JsonSchema = {
  type: 'object',
  required: ['referenceNumber', 'documentType', 'status', 'supplierNumber', 'amount', 'currencyId', 'version', 'lastModifiedDateTime', 'link'],
  properties: {
    referenceNumber: { type: 'string', maxLength: 15 },
    documentType: { enum: [...SUPPLIER_INVOICE_DOCUMENT_TYPES] },
    status: { enum: [...SUPPLIER_INVOICE_STATUSES] },
    supplierNumber: { type: 'string', maxLength: 30 },
    amount: { type: 'string', pattern: '^-?\\d{1,17}\\.\\d{2}$', description: 'Exact decimal.' },
    currencyId: { type: ['string', 'null'], pattern: '^[A-Z]{3}$' },
    version: VERSION,
    lastModifiedDateTime: V1_TIMESTAMP,
    link: { type: 'string', description: '/v1/supplierInvoice/<referenceNumber>' },
  },
};

const ATTACHMENT_DATA: JsonSchema = {
  type: 'object',
  required: ['id', 'name', 'revision', 'endpoint', 'objectId', 'contentType', 'size', 'sha256', 'link'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    name: { type: 'string', maxLength: 255 },
    revision: { type: 'integer', minimum: 1 },
    endpoint: { enum: ['supplierInvoice', 'customer'] },
    objectId: { type: 'string', maxLength: 64 },
    contentType: { type: 'string' },
    size: { type: 'integer', minimum: 1 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    link: { type: 'string', description: '/v1/attachment/<id>?revision=<n>' },
  },
};

/** The delivery body schema: the common envelope with this type's `data`. */
function deliverySchema(type: EventType, publisher: PublisherName, data: JsonSchema): JsonSchema {
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
      data,
    },
  };
}

function eventType(type: EventType, publisher: PublisherName, description: string, data: JsonSchema): EventTypeDescription {
  return { type, description, schema: deliverySchema(type, publisher, data) };
}

/** The catalog `GET /api/webhooks/publishers` answers with. */
export const PUBLISHERS: readonly PublisherDescription[] = [
  {
    name: SALES_ORDER_PUBLISHER,
    description: 'Sales orders (v3). The only publisher for /api/v3/SalesOrders.',
    eventTypes: [
      eventType('SALESORDER_CREATED', SALES_ORDER_PUBLISHER, 'A sales order was created.', SALES_ORDER_DATA),
      eventType('SALESORDER_UPDATED', SALES_ORDER_PUBLISHER, 'A sales order was changed; data is the order after the change.', SALES_ORDER_DATA),
      eventType('SALESORDER_DELETED', SALES_ORDER_PUBLISHER, 'A sales order was deleted; link answers 404 from now on.', SALES_ORDER_DATA),
    ],
  },
  {
    name: FINANCIALS_PUBLISHER,
    description: 'The v1 financial records. Sales order versions 1 and 2 belong to it; v3 sales orders do not.',
    eventTypes: [
      eventType('CUSTOMER_CREATED', FINANCIALS_PUBLISHER, 'A customer was created.', CUSTOMER_DATA),
      eventType('CUSTOMER_UPDATED', FINANCIALS_PUBLISHER, 'A customer was changed.', CUSTOMER_DATA),
      eventType('SUPPLIERINVOICE_CREATED', FINANCIALS_PUBLISHER, 'A supplier invoice was created.', SUPPLIER_INVOICE_DATA),
      eventType('SUPPLIERINVOICE_UPDATED', FINANCIALS_PUBLISHER, 'A supplier invoice was changed.', SUPPLIER_INVOICE_DATA),
      eventType('ATTACHMENT_CREATED', FINANCIALS_PUBLISHER, 'A file (or a new revision of one) was attached to a record.', ATTACHMENT_DATA),
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
