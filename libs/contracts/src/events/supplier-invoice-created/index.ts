export * as SupplierInvoiceCreated from './supplier-invoice-created.event';
