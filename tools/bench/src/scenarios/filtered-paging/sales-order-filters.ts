import type { ClientBase } from 'pg';
import type { FilterCase } from './customer-filters';

/** Every orderBy of `GET /api/v3/SalesOrders`, both directions. */
export const ORDER_BYS = ['created', 'created desc', 'lastModified', 'lastModified desc', 'orderId', 'orderId desc'] as const;

/** The order types the bench's spread company uses, by weight (the `{type}` path filter). */
export const BENCH_ORDER_TYPES = [
  ['SO', 80],
  ['QT', 12],
  ['IN', 5],
  ['CM', 3],
] as const;

/** A UTC instant as the API writes it. */
const WIRE_TIME = `to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A sales-order list request the scenario times: the path (with `{type}` or not) and its query without paging. */
export interface OrderFilterCase extends FilterCase {
  path: string;
}

/**
 * The documented filters of `GET /api/v3/SalesOrders[/{type}]` alone and in the pairs users
 * combine, each with every orderBy: `unfiltered` (the denominator of each orderBy), modifiedSince
 * at the company's median (half the orders) and at its start (all of them, a full sync), status,
 * customerId of the largest customer (the skew's worst case), `filter` on a customer name part
 * and on an order number fragment, and the pairs. Values are read from the loaded data.
 */
export async function salesOrderFilterCases(sql: ClientBase, companyId: string): Promise<OrderFilterCase[]> {
  const { rows } = await sql.query<Record<string, string>>(
    `SELECT ${WIRE_TIME.replace('%s', 'percentile_disc(0.5) WITHIN GROUP (ORDER BY last_modified_at)')} AS median,
            ${WIRE_TIME.replace('%s', 'min(last_modified_at)')} AS first,
            mode() WITHIN GROUP (ORDER BY customer_id) AS customer
     FROM sales_orders WHERE company_id = $1`,
    [companyId],
  );
  const { median, first, customer } = rows[0];
  const all = '/api/v3/SalesOrders';
  const filters: Array<{ name: string; path?: string; query: Record<string, string> }> = [
    { name: 'unfiltered', query: {} },
    { name: 'modifiedSince=start (all)', query: { modifiedSince: first } },
    { name: 'modifiedSince=median', query: { modifiedSince: median } },
    { name: 'status=Open', query: { status: 'Open' } },
    { name: 'status=Cancelled', query: { status: 'Cancelled' } },
    { name: 'customerId=largest', query: { customerId: customer } },
    { name: 'filter=bygg (customer name)', query: { filter: 'bygg' } },
    { name: 'filter=1234 (order number)', query: { filter: '1234' } },
    { name: 'status+modifiedSince', query: { status: 'Open', modifiedSince: median } },
    { name: 'customerId+status', query: { customerId: customer, status: 'Open' } },
    { name: 'customerId+modifiedSince', query: { customerId: customer, modifiedSince: median } },
    { name: 'type QT', path: `${all}/QT`, query: {} },
    { name: 'type QT+status', path: `${all}/QT`, query: { status: 'Open' } },
    { name: 'type SO+modifiedSince', path: `${all}/SO`, query: { modifiedSince: median } },
  ];
  return ORDER_BYS.flatMap((orderBy) =>
    filters.map((f) => ({ name: `orders: ${f.name}, ${orderBy}`, path: f.path ?? all, query: { ...f.query, orderBy } })),
  );
}
