import { TOPICS } from '../../topics/topics';
import { SupplierInvoiceEventData } from '../supplier-invoice/supplier-invoice-event.data';

/** A supplier invoice was created (POST /v1/supplierInvoice). */
export const TYPE = 'SUPPLIERINVOICE_CREATED';
export const TOPIC = TOPICS.supplierInvoices;

export class Data extends SupplierInvoiceEventData {}
