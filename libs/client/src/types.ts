import type { components, operations } from './generated/openapi';

/** The named schemas of the merged OpenAPI document (generated). */
export type Schemas = components['schemas'];

/** Query parameters of an operation, without the paging ones the iterators set. */
type ListFilters<Op extends keyof operations, Paging extends string> = Omit<NonNullable<operations[Op]['parameters']['query']>, Paging>;
/** A v1 filter may also be given as a Date (sent as the v1 timestamp, UTC without zone). */
type WithDates<T> = { [K in keyof T]?: K extends `${string}DateTime` ? T[K] | Date : T[K] };

export type Customer = Schemas['Customer'];
export type CustomerCreate = Schemas['CustomerCreate'];
export type CustomerUpdate = Schemas['CustomerUpdate'];
export type CustomerFilters = WithDates<ListFilters<'Customers_list', 'pageSize' | 'pageNumber'>>;

/** `GET /api/v3/Customers`: the v3 document's CustomerDto. */
export type CustomerV3 = Schemas['CustomerDto'];
/** `GET /api/v3/Customers/{customerId}/locations`: the v3 document's CustomerLocationItemDto. */
export type CustomerLocation = Schemas['CustomerLocationItemDto'];

/** `GET /api/v3/Inventory`: the v3 document's InventoryItemAvailabilityDto. */
export type InventoryItem = Schemas['InventoryItemAvailabilityDto'];
/** `PUT /api/v3/Inventory/{inventoryId}` (an extension): the whole item. */
export type InventoryItemPut = Schemas['InventoryItemPut'];
export type InventoryExpand = 'Location' | 'Attribute' | 'All' | 'None';
/** Price rules and exchange rates (extensions of the v3 document; docs/api-conventions.md "Price rules", "Totals"). */
export type PriceClass = Schemas['PriceClass'];
export type PriceClassPut = Schemas['PriceClassPut'];
export type PriceList = Schemas['PriceList'];
export type PriceListPut = Schemas['PriceListPut'];
export type CurrencyRates = Schemas['CurrencyRates'];
export type CurrencyRatesPut = Schemas['CurrencyRatesPut'];
/** The filters of `GET /api/v3/Inventory`; each list is sent as a repeated parameter. */
export interface InventoryQuery {
  inventoryId?: readonly string[];
  warehouseId?: readonly string[];
  locationId?: readonly string[];
  /** `attribute-id:attribute-value`, e.g. `WEBSHOP:1`. */
  attributeFilter?: readonly string[];
  modifiedSince?: Date | string;
}

export type SupplierInvoice = Schemas['SupplierInvoice'];
export type SupplierInvoiceCreate = Schemas['SupplierInvoiceCreate'];
export type SupplierInvoiceUpdate = Schemas['SupplierInvoiceUpdate'];
export type SupplierInvoiceFilters = WithDates<ListFilters<'SupplierInvoices_list', 'pageSize' | 'pageNumber'>>;

export type SalesOrder = Schemas['SalesOrder'];
export type SalesOrderSummary = Schemas['SalesOrderSummary'];
export type SalesOrderCreate = Schemas['SalesOrderCreate'];
export type SalesOrderPatch = Schemas['SalesOrderPatch'];
export type SalesOrderLine = Schemas['SalesOrderLine'];
/** A new line of `POST .../lines` (inventoryId, quantity and unitPrice required). */
export type SalesOrderLineAdd = Schemas['SalesOrderLineAdd'];
/** A line change of `PATCH .../lines`: the line `lineId` names and the fields to change. */
export type SalesOrderLinePatch = Schemas['SalesOrderLinePatch'];
/** The read views of an order (`GET .../commissions`, `/discounts`, `/tax`, `/rotrut`, `/shipment`), as the v3 document has them. */
export type SalesOrderCommission = Schemas['SalesOrderCommission'];
export type SalesOrderDiscount = Schemas['SalesOrderDiscount'];
export type SalesOrderTax = Schemas['SalesOrderTax'];
export type SalesOrderRotRut = Schemas['SalesOrderRotRut'];
export type SalesOrderShipment = Schemas['SalesOrderShipment'];
export type SalesOrderType = 'SO' | 'QT' | 'IN' | 'CM';
export type SalesOrderExpand =
  | 'lines'
  | 'customer'
  | 'billing'
  | 'shipping'
  | 'payment'
  | 'financialInformation'
  | 'note'
  | 'attachments'
  | 'owner'
  | 'origin'
  | 'freight'
  | 'all';
/** List query of `GET /api/v3/SalesOrders` without paging and expand (the helpers take those apart). */
export type SalesOrderQuery = Omit<NonNullable<operations['SalesOrders_listAll']['parameters']['query']>, 'pageIndex' | 'pageSize' | 'expand'>;

export type AttachmentCreated = Schemas['AttachmentCreated'];
export type AttachmentContent = Schemas['AttachmentContent'];
