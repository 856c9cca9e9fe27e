import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { type SupplierInvoiceRecord, SupplierInvoicesRepository } from '../repository/supplier-invoices.repository';

/** GET /v1/supplierInvoice/{referenceNumber}: the invoice and its version; 404 when absent or another company's. */
@Injectable()
export class GetSupplierInvoice {
  constructor(private readonly invoices: SupplierInvoicesRepository) {}

  async execute(companyId: string, referenceNumber: string): Promise<SupplierInvoiceRecord> {
    const invoice = await this.invoices.find(companyId, referenceNumber);
    if (!invoice) throw new NotFoundError(`Supplier invoice ${referenceNumber}`);
    return invoice;
  }
}
