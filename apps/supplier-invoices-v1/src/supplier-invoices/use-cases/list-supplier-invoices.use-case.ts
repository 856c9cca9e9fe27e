import { Inject, Injectable } from '@nestjs/common';
import { v1PageBodyFromJson } from '@erp/paging';
import { SupplierInvoicesRepository } from '../repository/supplier-invoices.repository';
import { SUPPLIER_INVOICE_SETTINGS, type SupplierInvoiceSettings } from '../supplier-invoice-settings';
import { parseSupplierInvoiceListQuery } from '../supplier-invoice-list.query';

/** GET /v1/supplierInvoice: one page as a JSON array text; unknown or bad parameters are 400 before any SQL. */
@Injectable()
export class ListSupplierInvoices {
  constructor(
    private readonly invoices: SupplierInvoicesRepository,
    @Inject(SUPPLIER_INVOICE_SETTINGS) private readonly settings: SupplierInvoiceSettings,
  ) {}

  async execute(companyId: string, query: Record<string, string | string[] | undefined>): Promise<string> {
    const { rows, total } = await this.invoices.page(companyId, parseSupplierInvoiceListQuery(query, this.settings.maxPageSize));
    return v1PageBodyFromJson(rows, total, this.settings.maxPageSize);
  }
}
