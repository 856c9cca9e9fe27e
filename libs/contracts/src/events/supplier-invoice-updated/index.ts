export * as SupplierInvoiceUpdated from './supplier-invoice-updated.event';
