/** The supplier-invoices service's settings that use cases read (from the config, provided by the app module). */
export const SUPPLIER_INVOICE_SETTINGS = Symbol('SUPPLIER_INVOICE_SETTINGS');

export interface SupplierInvoiceSettings {
  maxPageSize: number;
}
