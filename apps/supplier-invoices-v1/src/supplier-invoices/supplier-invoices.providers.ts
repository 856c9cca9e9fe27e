import type { Provider } from '@nestjs/common';
import { SupplierInvoicesRepository } from './repository/supplier-invoices.repository';
import { CreateSupplierInvoice } from './use-cases/create-supplier-invoice.use-case';
import { GetSupplierInvoice } from './use-cases/get-supplier-invoice.use-case';
import { GetSupplierInvoiceReference } from './use-cases/get-supplier-invoice-reference.use-case';
import { ListSupplierInvoices } from './use-cases/list-supplier-invoices.use-case';
import { UpdateSupplierInvoice } from './use-cases/update-supplier-invoice.use-case';

/** The supplier-invoice use cases (one per operation) and the repository they write through. */
export const SUPPLIER_INVOICE_PROVIDERS: Provider[] = [
  SupplierInvoicesRepository,
  ListSupplierInvoices,
  GetSupplierInvoice,
  GetSupplierInvoiceReference,
  CreateSupplierInvoice,
  UpdateSupplierInvoice,
];
