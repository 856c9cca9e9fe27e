import { TOPICS } from '../../topics/topics';
import { SupplierInvoiceEventData } from '../supplier-invoice/supplier-invoice-event.data';

/** A supplier invoice was changed (PUT /v1/supplierInvoice/{referenceNumber}); `data` is the invoice after it. */
export const TYPE = 'SUPPLIERINVOICE_UPDATED';
export const TOPIC = TOPICS.supplierInvoices;

export class Data extends SupplierInvoiceEventData {}
