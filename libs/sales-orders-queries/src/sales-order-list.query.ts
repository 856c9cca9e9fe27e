import { refuseUnknownParameters, ValidationFailedError } from '@erp/errors';
import { parseV3DateTime, parseV3Expand, parseV3Paging, type V3PageRequest, type V3PagingOptions } from '@erp/paging';
import { EXPAND_PARTS, type ExpandPart, ORDER_STATUSES, type OrderStatus, type OrderType } from './order-model';

type Query = Record<string, string | string[] | undefined>;

/** API.md: default 100, maximum 1000, or 100 whenever anything is expanded. */
export const ORDER_LIST_PAGING: V3PagingOptions = { defaultPageSize: 100, maxPageSize: 1000, expandedMaxPageSize: 100 };
/** The lines sub-resource: default and maximum 1000. */
export const LINE_LIST_PAGING: V3PagingOptions = { defaultPageSize: 1000, maxPageSize: 1000 };

export const ORDER_BY_FIELDS = ['created', 'lastModified', 'orderId'] as const;
export type OrderByField = (typeof ORDER_BY_FIELDS)[number];

export interface SalesOrderListQuery {
  page: V3PageRequest;
  type?: OrderType;
  customerId?: string;
  status?: OrderStatus;
  /** UTC instant, ISO 8601. */
  modifiedSince?: string;
  filter?: string;
  orderBy: { field: OrderByField; direction: 'asc' | 'desc' };
  expand: Set<ExpandPart>;
}

const LIST_PARAMETERS = new Set(['pageSize', 'pageIndex', 'customerId', 'status', 'modifiedSince', 'filter', 'orderBy', 'expand']);

function single(query: Query, name: string, maxLength: number): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw ValidationFailedError.of(name, 'must be given once');
  if (value.length > maxLength) throw ValidationFailedError.of(name, `must be at most ${maxLength} characters`);
  // Control characters never occur in the searched fields; refusing them keeps chr(1) a safe separator.
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) throw ValidationFailedError.of(name, 'must not contain control characters');
  return value;
}

/** `created`, `lastModified` or `orderId` (any case), optionally followed by ` asc` or ` desc`. Default `created asc`. */
export function parseOrderBy(value: string | undefined): SalesOrderListQuery['orderBy'] {
  if (value === undefined) return { field: 'created', direction: 'asc' };
  const m = /^\s*([A-Za-z]+)(?:\s+(asc|desc))?\s*$/i.exec(value);
  const field = m && ORDER_BY_FIELDS.find((f) => f.toLowerCase() === m[1].toLowerCase());
  if (!m || !field) {
    throw ValidationFailedError.of('orderBy', `must be one of ${ORDER_BY_FIELDS.join(', ')}, optionally followed by asc or desc`);
  }
  return { field, direction: (m[2]?.toLowerCase() as 'asc' | 'desc' | undefined) ?? 'asc' };
}

/** Reads the order list query of GET /api/v3/SalesOrders[/{type}]. */
export function parseSalesOrderListQuery(query: Query, type: OrderType | undefined): SalesOrderListQuery {
  refuseUnknownParameters(query, LIST_PARAMETERS);
  const expand = parseV3Expand(query.expand, EXPAND_PARTS);
  const statusGiven = single(query, 'status', 20);
  const statusText = statusGiven === '' ? undefined : statusGiven;
  const status = statusText === undefined ? undefined : ORDER_STATUSES.find((s) => s.toLowerCase() === statusText.toLowerCase());
  if (statusText !== undefined && !status) throw ValidationFailedError.of('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
  const modifiedSinceText = single(query, 'modifiedSince', 40);
  const modifiedSince = modifiedSinceText === undefined ? undefined : parseV3DateTime(modifiedSinceText);
  if (modifiedSinceText !== undefined && !modifiedSince) {
    throw ValidationFailedError.of(
      'modifiedSince',
      'must be an ISO 8601 timestamp, e.g. 2026-04-21T10:15:00Z or 2026-04-21T12:15:00+02:00 (UTC unless an offset is given)',
      '0006-InvalidFormat',
    );
  }
  const customerId = single(query, 'customerId', 30);
  const filter = single(query, 'filter', 100);
  return {
    page: parseV3Paging(query, ORDER_LIST_PAGING, { expanded: expand.size > 0 }),
    type,
    customerId: customerId === '' ? undefined : customerId,
    status,
    modifiedSince: modifiedSince?.toISOString(),
    filter: filter === '' ? undefined : filter,
    orderBy: parseOrderBy(single(query, 'orderBy', 40)),
    expand,
  };
}
