import { updateWithRetry, type ChangeFunction, type UpdateOptions } from '../concurrency/update-with-retry';
import type { Transport } from '../http/transport';
import { listV1, type V1ListOptions } from '../paging/v1-list';
import { listV3, type V3ListOptions } from '../paging/v3-list';
import type { Customer, CustomerCreate, CustomerFilters, CustomerLocation, CustomerUpdate, CustomerV3 } from '../types';
import { etagOf } from './etag';

const PATH = '/v1/customer';

/** `/v1/customer`. */
export class CustomersApi {
  constructor(private readonly transport: Transport) {}

  /** Every customer matching `filters`, page by page (see `listV1` for the paging rules it keeps). */
  list(filters: CustomerFilters = {}, options: Omit<V1ListOptions, 'filters'> = {}): AsyncGenerator<Customer, void, undefined> {
    return listV1<Customer>(this.transport, PATH, { ...options, filters });
  }

  async get(customerNumber: string): Promise<Customer> {
    return (await this.getWithEtag(customerNumber)).record;
  }

  async getWithEtag(customerNumber: string): Promise<{ record: Customer; etag: string }> {
    const response = await this.transport.request<Customer>('GET', this.path(customerNumber));
    return { record: response.data, etag: etagOf(response.headers, `GET ${this.path(customerNumber)}`) };
  }

  async create(customer: CustomerCreate): Promise<Customer> {
    return (await this.transport.request<Customer>('POST', PATH, { body: customer })).data;
  }

  /**
   * Read-modify-write with the ETag read: `change` gets the current customer and returns the fields
   * to change (PUT changes only those); a 412 re-reads and re-applies it, up to `maxAttempts`.
   * Answers the customer as it is after the change.
   */
  async update(customerNumber: string, change: ChangeFunction<Customer, CustomerUpdate>, options: UpdateOptions = {}): Promise<Customer> {
    await updateWithRetry(
      {
        resource: `customer ${customerNumber}`,
        read: () => this.getWithEtag(customerNumber),
        change,
        write: (patch, etag) => this.transport.request('PUT', this.path(customerNumber), { body: patch, headers: { 'if-match': etag } }),
      },
      options,
    );
    // PUT answers 204 without a body.
    return this.get(customerNumber);
  }

  /**
   * The v3 view, `GET /api/v3/Customers`: every customer whose number, name or VAT registration id
   * contains `filter` (any case), following `nextPage`.
   */
  listV3(query: { filter?: string } = {}, options: V3ListOptions & { pageSize?: number } = {}): AsyncGenerator<CustomerV3, void, undefined> {
    return listV3<CustomerV3>(this.transport, '/api/v3/Customers', { filter: query.filter, pageSize: options.pageSize }, options);
  }

  /** `GET /api/v3/Customers/{customerId}/locations`: the customer's locations (one, `MAIN`). */
  async locations(customerNumber: string): Promise<CustomerLocation[]> {
    return (await this.transport.request<CustomerLocation[]>('GET', `/api/v3/Customers/${encodeURIComponent(customerNumber)}/locations`)).data;
  }

  private path(customerNumber: string): string {
    return `${PATH}/${encodeURIComponent(customerNumber)}`;
  }
}
