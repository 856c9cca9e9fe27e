/**
 * The order types this product knows. `SO` is the everyday sales order; the others share its
 * rules (numbering per company and type, the same fields and lines). An unknown type in a body or
 * a list path is a 400; in an order's path it is simply a 404.
 */
export const ORDER_TYPES = {
  SO: 'Sales order',
  QT: 'Quote',
  IN: 'Invoice',
  CM: 'Credit memo',
} as const;
export type OrderType = keyof typeof ORDER_TYPES;
export const ORDER_TYPE_CODES = Object.keys(ORDER_TYPES) as OrderType[];

export function isOrderType(value: string): value is OrderType {
  return Object.prototype.hasOwnProperty.call(ORDER_TYPES, value);
}

export const ORDER_STATUSES = ['Open', 'Hold', 'BackOrder', 'Completed', 'Cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** A new order starts Open or on Hold. */
export const CREATE_STATUSES = ['Open', 'Hold'] as const;

/**
 * The parts `expand` can add to an order (`all` means every one; any case). The v3 document's
 * expansion names are all accepted: `owner`, `origin` and `freight` are parts this service keeps no
 * data for, so they add nothing; `lines` is this product's addition.
 */
export const EXPAND_PARTS = [
  'lines',
  'customer',
  'billing',
  'shipping',
  'payment',
  'financialInformation',
  'note',
  'attachments',
  'owner',
  'origin',
  'freight',
] as const;
export type ExpandPart = (typeof EXPAND_PARTS)[number];
/** `expand` values that add no part: the v3 document's `None` (its default). */
export const EXPAND_NOTHING = ['none'] as const;

/** A customer whose snapshot has this status cannot be put on an order. */
export const INACTIVE_CUSTOMER_STATUS = 'Inactive';

/** Lines one request may carry (POST orderLines, PATCH lines); a body also stays under BODY_LIMIT_BYTES. */
export const MAX_LINES_PER_REQUEST = 10_000;

/** Order ids are numbered per company and type, zero-padded to this width (`000123`). */
export const ORDER_ID_WIDTH = 6;

/** The path of an order resource, used in Location, events and links. */
export function orderLink(type: string, orderId: string): string {
  return `/api/v3/SalesOrders/${encodeURIComponent(type)}/${encodeURIComponent(orderId)}`;
}
