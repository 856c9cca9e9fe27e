import { AttachmentCreated } from '../events/attachment-created';
import { CustomerEventData } from '../events/customer/customer-event.data';
import { SalesOrderEventData } from '../events/sales-order/sales-order-event.data';
import { SupplierInvoiceEventData } from '../events/supplier-invoice/supplier-invoice-event.data';
import type { EventType } from '../registry/event-registry';
import { TOPICS } from '../topics/topics';
import { topicEventEnvelope } from './topic-event-envelope';

type TypesOf<P extends string> = Extract<EventType, `${P}_${string}`>;

/** Any event of `TOPICS.customers` (`CUSTOMER_CREATED`, `CUSTOMER_UPDATED`), validated as a whole. */
export class CustomerEvent extends topicEventEnvelope<TypesOf<'CUSTOMER'>>(TOPICS.customers, CustomerEventData) {}

/** Any event of `TOPICS.supplierInvoices`, validated as a whole. */
export class SupplierInvoiceEvent extends topicEventEnvelope<TypesOf<'SUPPLIERINVOICE'>>(TOPICS.supplierInvoices, SupplierInvoiceEventData) {}

/** Any event of `TOPICS.attachments` (`ATTACHMENT_CREATED`), validated as a whole. */
export class AttachmentEvent extends topicEventEnvelope<TypesOf<'ATTACHMENT'>>(TOPICS.attachments, AttachmentCreated.Data) {}

/** Any event of `TOPICS.salesOrders`, validated as a whole. */
export class SalesOrderEvent extends topicEventEnvelope<TypesOf<'SALESORDER'>>(TOPICS.salesOrders, SalesOrderEventData) {}
