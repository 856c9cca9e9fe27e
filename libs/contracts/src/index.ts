export { isTopicName, TOPIC_NAME_PATTERN, TOPICS, type TopicName } from './topics/topics';
export { EVENT_TYPE_PATTERN, EventEnvelope } from './envelope/event-envelope';
export {
  createEvent,
  describeValidationErrors,
  type EnvelopeValidation,
  type NewEventInput,
  validateEnvelope,
  type ValidateEnvelopeOptions,
} from './envelope/validate-envelope';
export {
  type DomainEvent,
  type EventData,
  type EventDefinition,
  EVENT_REGISTRY,
  EVENT_TYPES,
  type EventRegistry,
  type EventType,
  eventTypesOf,
  isEventType,
  topicOf,
} from './registry/event-registry';
export { eventDataSchema, eventEnvelopeSchema, type JsonSchema } from './json-schema/event-data-schema';
export { EVENT_CONTENT_TYPE, EVENT_HEADERS, EVENT_MESSAGE_KEY_PATTERN, type EventHeader, eventMessageKey } from './kafka-message/kafka-message';
export {
  EVENT_CONSUMERS,
  type EventConsumer,
  eventConsumersOf,
  type EventService,
  TOPIC_PRODUCERS,
  topicsProducedBy,
} from './participants/event-participants';
export { asyncApiDocument } from './asyncapi/asyncapi-document';
export {
  CUSTOMER_STATUSES,
  CustomerEventData,
  customerLink,
  type CustomerStatus,
} from './events/customer/customer-event.data';
export { CustomerCreated } from './events/customer-created';
export { CustomerUpdated } from './events/customer-updated';
export {
  SUPPLIER_INVOICE_DOCUMENT_TYPES,
  SUPPLIER_INVOICE_STATUSES,
  SupplierInvoiceEventData,
  type SupplierInvoiceDocumentType,
  supplierInvoiceLink,
  type SupplierInvoiceStatus,
} from './events/supplier-invoice/supplier-invoice-event.data';
export { SupplierInvoiceCreated } from './events/supplier-invoice-created';
export { SupplierInvoiceUpdated } from './events/supplier-invoice-updated';
export { AttachmentCreated } from './events/attachment-created';
export {
  SALES_ORDER_STATUSES,
  SalesOrderEventData,
  salesOrderLink,
  type SalesOrderStatus,
  salesOrderSubject,
} from './events/sales-order/sales-order-event.data';
export { SalesOrderCreated } from './events/sales-order-created';
export { SalesOrderUpdated } from './events/sales-order-updated';
export { SalesOrderDeleted } from './events/sales-order-deleted';
export { topicEventEnvelope, type TopicEventEnvelopeClass } from './topic-events/topic-event-envelope';
export { AttachmentEvent, CustomerEvent, SalesOrderEvent, SupplierInvoiceEvent } from './topic-events/topic-events';
export { INTERNAL_API_PREFIX, INTERNAL_ROUTES, InternalContractError, readInternalBody } from './internal-api/internal-api';
