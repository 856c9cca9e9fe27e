import type { Readable } from 'node:stream';
import type { ApiRecord } from './format/values';

export interface SalesOrderKey {
  type: string;
  orderId: string;
}

/** What a list run reports after each page: the records received so far and the current total. */
export interface PageProgress {
  received: number;
  totalCount?: number;
}

/**
 * The calls the commands make. Backed by `@erp/client` (see erp-client-api.ts); kept as a small
 * interface so the commands read as what they do and the adapter is the one place that knows the SDK.
 */
export type PriceRecordKind = 'class' | 'list' | 'rates';

export interface CliApi {
  get(path: string, query?: Record<string, string>): Promise<ApiRecord>;
  /** Every record of a v1 list (the client keeps pageSize and filters constant across the run). */
  listV1(path: string, options: { filters: Record<string, string>; pageSize?: number; onPage?(page: PageProgress): void }): AsyncIterable<ApiRecord>;
  /** Every record of a v3 list, following `nextPage`. */
  listV3(path: string, query: Record<string, string>, options: { onPage?(page: PageProgress): void }): AsyncIterable<ApiRecord>;
  upload(
    owner: { type: 'customer' | 'supplierInvoice'; id: string },
    file: { fileName: string; data: Readable; contentType?: string; onProgress?(bytes: number): void },
  ): Promise<ApiRecord>;
  /** The line operations of a sales order (`.../lines`): each answers the order's new ETag. */
  addOrderLines(order: SalesOrderKey, lines: ApiRecord[], ifMatch: string): Promise<{ etag: string }>;
  patchOrderLines(order: SalesOrderKey, lines: ApiRecord[], ifMatch: string): Promise<{ etag: string }>;
  deleteOrderLines(order: SalesOrderKey, lineIds: number[], ifMatch: string): Promise<{ etag: string }>;
  /** A read view of a sales order (`GET .../commissions`, `/discounts`, `/tax`, `/rotrut`, `/shipment`). */
  orderView(order: SalesOrderKey, view: 'commissions' | 'discounts' | 'tax' | 'rotrut' | 'shipment'): Promise<unknown>;
  /** Creates or replaces an inventory item (`PUT /api/v3/Inventory/{inventoryId}`); answers the item. */
  putInventoryItem(inventoryId: string, item: ApiRecord): Promise<ApiRecord>;
  /**
   * A price rule or the exchange rates (extensions): `class` = `/api/v3/PriceClasses/{id}`, `list` =
   * `/api/v3/PriceLists/{id}`, `rates` = `/api/v3/CurrencyRates` (no id). PUT replaces the whole record.
   */
  putPriceRecord(kind: PriceRecordKind, id: string | undefined, body: ApiRecord): Promise<ApiRecord>;
  getPriceRecord(kind: PriceRecordKind, id: string | undefined): Promise<ApiRecord>;
  /** The locations of a customer (`GET /api/v3/Customers/{customerId}/locations`). */
  customerLocations(customerNumber: string): Promise<ApiRecord[]>;
  /** The attachment's decoded bytes as a stream, and its size when the API told it. */
  download(id: string): Promise<{ stream: Readable; size?: number }>;
}
