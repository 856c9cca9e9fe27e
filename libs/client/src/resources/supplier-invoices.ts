import type { Transport } from '../http/transport';
import { listV1, type V1ListOptions } from '../paging/v1-list';
import type { SupplierInvoice, SupplierInvoiceCreate, SupplierInvoiceFilters } from '../types';

const PATH = '/v1/supplierInvoice';

/** `/v1/supplierInvoice`. */
export class SupplierInvoicesApi {
  constructor(private readonly transport: Transport) {}

  /** Every invoice matching `filters`, page by page (see `listV1` for the paging rules it keeps). */
  list(filters: SupplierInvoiceFilters = {}, options: Omit<V1ListOptions, 'filters'> = {}): AsyncGenerator<SupplierInvoice, void, undefined> {
    return listV1<SupplierInvoice>(this.transport, PATH, { ...options, filters });
  }

  /** The invoice, with `attachments` (the ids `attachments.download` takes). */
  async get(documentNumber: string): Promise<SupplierInvoice> {
    return (await this.transport.request<SupplierInvoice>('GET', `${PATH}/${encodeURIComponent(documentNumber)}`)).data;
  }

  async create(invoice: SupplierInvoiceCreate): Promise<SupplierInvoice> {
    return (await this.transport.request<SupplierInvoice>('POST', PATH, { body: invoice })).data;
  }
}
