import { Injectable } from '@nestjs/common';
import type { SupplierInvoiceEventData } from '@erp/contracts';
import { NotFoundError } from '@erp/errors';
import { supplierInvoiceEventData } from '../../events/supplier-invoice-events';
import { SupplierInvoicesRepository } from '../repository/supplier-invoices.repository';

/**
 * GET /internal/v1/supplier-invoices/{referenceNumber} (another service, for one company): the
 * invoice as its latest event carries it, for a service that has not received that event yet (the
 * attachments service's owners); 404 when the company has no such invoice.
 */
@Injectable()
export class GetSupplierInvoiceReference {
  constructor(private readonly invoices: SupplierInvoicesRepository) {}

  async execute(companyId: string, referenceNumber: string): Promise<SupplierInvoiceEventData> {
    const invoice = await this.invoices.findWithAmount(companyId, referenceNumber);
    if (!invoice) throw new NotFoundError(`Supplier invoice ${referenceNumber}`);
    return supplierInvoiceEventData(invoice);
  }
}
