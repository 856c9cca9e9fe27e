import { updateWithRetry, type ChangeFunction, type UpdateOptions } from '../concurrency/update-with-retry';
import type { Transport } from '../http/transport';
import { listV3, type V3ListOptions } from '../paging/v3-list';
import type {
  SalesOrder,
  SalesOrderCommission,
  SalesOrderCreate,
  SalesOrderDiscount,
  SalesOrderExpand,
  SalesOrderLineAdd,
  SalesOrderLinePatch,
  SalesOrderPatch,
  SalesOrderQuery,
  SalesOrderRotRut,
  SalesOrderShipment,
  SalesOrderSummary,
  SalesOrderTax,
  SalesOrderType,
} from '../types';
import { etagOf } from './etag';

const PATH = '/api/v3/SalesOrders';

export interface SalesOrderListOptions extends V3ListOptions {
  /** Only orders of this type (`/api/v3/SalesOrders/{type}`). */
  type?: SalesOrderType;
  /** Orders per page: the server's default is 100 (and 100 is the maximum with `expand`); 10 to 15 for orders with many lines. */
  pageSize?: number;
}

export interface SalesOrderUpdateOptions extends UpdateOptions {
  /** Parts the change function needs to see (e.g. `lines`); the read asks only for these. */
  expand?: readonly SalesOrderExpand[];
}

/** `/api/v3/SalesOrders`. */
export class SalesOrdersApi {
  constructor(private readonly transport: Transport) {}

  /** Every order matching `query`, following `nextPage`: summary rows without `expand`, full orders with it. */
  list(query?: SalesOrderQuery, options?: SalesOrderListOptions): AsyncGenerator<SalesOrderSummary, void, undefined>;
  list(query: SalesOrderQuery, options: SalesOrderListOptions & { expand: readonly SalesOrderExpand[] }): AsyncGenerator<SalesOrder, void, undefined>;
  list(query: SalesOrderQuery = {}, options: SalesOrderListOptions & { expand?: readonly SalesOrderExpand[] } = {}): AsyncGenerator<SalesOrder | SalesOrderSummary, void, undefined> {
    const path = options.type ? `${PATH}/${encodeURIComponent(options.type)}` : PATH;
    const expand = options.expand?.length ? options.expand.join(',') : undefined;
    return listV3(this.transport, path, { ...query, pageSize: options.pageSize, expand }, options);
  }

  async get(type: SalesOrderType | string, orderId: string, options: { expand?: readonly SalesOrderExpand[] } = {}): Promise<SalesOrder> {
    return (await this.getWithEtag(type, orderId, options)).record;
  }

  async getWithEtag(type: SalesOrderType | string, orderId: string, options: { expand?: readonly SalesOrderExpand[] } = {}): Promise<{ record: SalesOrder; etag: string }> {
    const path = this.path(type, orderId);
    const response = await this.transport.request<SalesOrder>('GET', path, { query: { expand: options.expand?.length ? options.expand.join(',') : undefined } });
    return { record: response.data, etag: etagOf(response.headers, `GET ${path}`) };
  }

  /** Creates an order; answers it whole (every part), as the API does. */
  async create(order: SalesOrderCreate): Promise<SalesOrder> {
    return (await this.transport.request<SalesOrder>('POST', PATH, { body: order })).data;
  }

  /**
   * Read-modify-write with the ETag read: `change` gets the current order (with the `expand` parts
   * asked for) and returns one PATCH body carrying every change; a 412 re-reads and re-applies it,
   * up to `maxAttempts`, then ErpConflictError. Answers the updated order.
   */
  async update(type: SalesOrderType | string, orderId: string, change: ChangeFunction<SalesOrder, SalesOrderPatch>, options: SalesOrderUpdateOptions = {}): Promise<SalesOrder> {
    const path = this.path(type, orderId);
    return updateWithRetry(
      {
        resource: `sales order ${type}/${orderId}`,
        read: () => this.getWithEtag(type, orderId, { expand: options.expand }),
        change,
        write: async (patch, etag) => (await this.transport.request<SalesOrder>('PATCH', path, { body: patch, headers: { 'if-match': etag } })).data,
      },
      options,
    );
  }

  // The line operations answer 202 with no body (as the v3 document declares) and the order's new
  // ETag, which they return so a caller can chain writes without reading in between. `ifMatch` is
  // the ETag the caller's decision was based on ('*' to write over any version); each operation is
  // all or nothing on the server, so a rejected call changed nothing.

  /** `POST .../lines`: adds the lines after the last one; answers the order's new ETag. */
  async addLines(type: SalesOrderType | string, orderId: string, lines: SalesOrderLineAdd[], ifMatch: string): Promise<{ etag: string }> {
    return this.writeLines('POST', type, orderId, { body: { lines }, headers: { 'if-match': ifMatch } });
  }

  /** `PATCH .../lines`: changes the lines each entry's `lineId` names; answers the order's new ETag. */
  async patchLines(type: SalesOrderType | string, orderId: string, lines: SalesOrderLinePatch[], ifMatch: string): Promise<{ etag: string }> {
    return this.writeLines('PATCH', type, orderId, { body: { lines }, headers: { 'if-match': ifMatch } });
  }

  /** `DELETE .../lines?ids=`: deletes the lines (at most 1000 per call, the server's limit); answers the order's new ETag. */
  async deleteLines(type: SalesOrderType | string, orderId: string, lineIds: readonly number[], ifMatch: string): Promise<{ etag: string }> {
    return this.writeLines('DELETE', type, orderId, { query: { ids: lineIds.join(',') }, headers: { 'if-match': ifMatch } });
  }

  // The read views, computed by the server from the order's view parts and lines when read.

  /** `GET .../commissions`: the salesperson's commission (`[]` without a salesperson). */
  commissions(type: SalesOrderType | string, orderId: string): Promise<SalesOrderCommission[]> {
    return this.view(type, orderId, 'commissions');
  }

  /** `GET .../discounts`: the document discounts with their base and amount. */
  discounts(type: SalesOrderType | string, orderId: string): Promise<SalesOrderDiscount[]> {
    return this.view(type, orderId, 'discounts');
  }

  /** `GET .../tax`: each tax with its taxable amount and tax. */
  tax(type: SalesOrderType | string, orderId: string): Promise<SalesOrderTax[]> {
    return this.view(type, orderId, 'tax');
  }

  /** `GET .../rotrut`: the ROT/RUT deduction (`type` null when the order has none). */
  rotRut(type: SalesOrderType | string, orderId: string): Promise<SalesOrderRotRut> {
    return this.view(type, orderId, 'rotrut');
  }

  /** `GET .../shipment`: the order's shipments, in date order. */
  shipments(type: SalesOrderType | string, orderId: string): Promise<SalesOrderShipment[]> {
    return this.view(type, orderId, 'shipment');
  }

  private async view<T>(type: string, orderId: string, name: string): Promise<T> {
    return (await this.transport.request<T>('GET', `${this.path(type, orderId)}/${name}`)).data;
  }

  private async writeLines(
    method: 'POST' | 'PATCH' | 'DELETE',
    type: string,
    orderId: string,
    options: { body?: unknown; query?: Record<string, string>; headers: Record<string, string> },
  ): Promise<{ etag: string }> {
    const path = `${this.path(type, orderId)}/lines`;
    const response = await this.transport.request<undefined>(method, path, options);
    return { etag: etagOf(response.headers, `${method} ${path}`) };
  }

  private path(type: string, orderId: string): string {
    return `${PATH}/${encodeURIComponent(type)}/${encodeURIComponent(orderId)}`;
  }
}
