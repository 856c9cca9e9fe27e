import { orderJson, SUMMARY_JSON } from './order-json';
import type { ExpandPart } from './order-model';
import type { SalesOrderListQuery } from './sales-order-list.query';

/**
 * The order list's and one order's statements: filters, order, paging and counts. The JSON each
 * row is rendered as is order-json.ts; an order's lines are order-lines.queries.ts.
 */

export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** The value `filter` is matched against; identical to the trigram index expression of the migration and to the `search_text` that migration 1766200000000 keeps per order. */
export const SEARCH_TEXT = `lower(o.order_id || chr(1) || coalesce(o.customer_order, '') || chr(1) || o.customer_name)`;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** WHERE clause of a list request: always scoped by company, then each filter given. */
function whereClause(companyId: string, query: SalesOrderListQuery): { sql: string; values: unknown[] } {
  const values: unknown[] = [companyId];
  const conditions = ['o.company_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (query.type !== undefined) add((p) => `o.order_type = ${p}`, query.type);
  if (query.customerId !== undefined) add((p) => `o.customer_id = ${p}`, query.customerId);
  if (query.status !== undefined) add((p) => `o.status = ${p}`, query.status);
  if (query.modifiedSince !== undefined) add((p) => `o.last_modified_at >= ${p}::timestamptz`, query.modifiedSince);
  if (query.filter !== undefined) add((p) => `${SEARCH_TEXT} LIKE '%' || ${p} || '%' ESCAPE '\\'`, escapeLike(query.filter.toLowerCase()));
  return { sql: conditions.join(' AND '), values };
}

/** ORDER BY for each orderBy field; every order ends in a unique key, so pages never overlap or skip. */
export function orderByClause(query: SalesOrderListQuery): string {
  const dir = query.orderBy.direction === 'desc' ? 'DESC' : 'ASC';
  switch (query.orderBy.field) {
    case 'lastModified':
      return `o.last_modified_at ${dir}, o.internal_id ${dir}`;
    case 'orderId':
      return `o.order_id ${dir}, o.order_type ${dir}`;
    case 'created':
      return `o.created_at ${dir}, o.internal_id ${dir}`;
  }
}

/** The rendering of a list's rows: the full order with the expanded parts, or the summary. */
export function listJson(query: SalesOrderListQuery): string {
  return query.expand.size > 0 ? orderJson(query.expand) : SUMMARY_JSON;
}

/**
 * One page of the orders matching `where` (over `o`), in `orderBy`: the page's rows are chosen
 * first over the index's columns only (LIMIT/OFFSET, no table visit where the index covers the
 * filter) and the JSON is built for those rows only: with the JSON in the same SELECT as the
 * OFFSET, PostgreSQL would build it (lines included) for every skipped row too, so page N would
 * cost N + 1 pages of work. `pick` orders the choice of rows when it differs from the page's order
 * (a page read from the other end, see orderPageQuery); `collect` reads every match before choosing
 * (FILTER_MATCHES_COLLECTED).
 */
export function orderRowsPageSql(where: string, orderBy: string, limit: string, offset: string, json: string, pick = orderBy, collect = false): string {
  // `collect`: every matching row's sort keys first (OFFSET 0 keeps the subquery apart, so it is
  // planned to return all its rows, not to follow a sort key's index), then the page among them.
  const rows = collect
    ? `(SELECT o.internal_id, o.created_at, o.last_modified_at, o.order_id, o.order_type FROM sales_orders o WHERE ${where} OFFSET 0) AS o`
    : `sales_orders o WHERE ${where}`;
  return `SELECT ${json} AS json
          FROM (SELECT o.internal_id FROM ${rows} ORDER BY ${pick} LIMIT ${limit} OFFSET ${offset}) AS page
          JOIN sales_orders o ON o.internal_id = page.internal_id
          ORDER BY ${orderBy}`;
}

/**
 * Up to this many matches (the exact total, known before the page), a `filter` page reads them all
 * through the trigram index and sorts them rather than leaving the choice to the planner. The
 * planner estimates a substring from the statistics' sample: one histogram bound that happens to
 * contain a rare substring (one ANALYZE in ten or so for `1234`, 252 of 200k orders) makes it
 * 1% of the orders, and it then walks the sort key's index checking each row for the 100 matches
 * of a page: 30-140 ms instead of 2-3 ms. Reading 5,000 matches costs ~5 ms; above that, walking
 * the index to a page is cheap (one match in 40 rows or better at 200k orders) and stays.
 */
export const FILTER_MATCHES_COLLECTED = 5000;

/**
 * One page of orders by count + OFFSET (the requests the list cells do not answer: see
 * isCellListQuery). Given the exact `total` (read in the same snapshot), a page in the second half
 * is read from the other end, in the reverse order with the mirrored offset, and put back in order:
 * every order ends in a unique key, so the reverse order is exactly the mirror, and the last page
 * skips no more rows than the first. A `filter` with few matches reads them all first
 * (FILTER_MATCHES_COLLECTED).
 */
export function orderPageQuery(companyId: string, query: SalesOrderListQuery, total?: number): SqlQuery {
  const where = whereClause(companyId, query);
  const n = where.values.length;
  const { pageSize, offset } = query.page;
  const orderBy = orderByClause(query);
  const collect = query.filter !== undefined && total !== undefined && total <= FILTER_MATCHES_COLLECTED;
  if (total !== undefined && offset < total && offset * 2 > total) {
    const reversed = orderByClause({ ...query, orderBy: { ...query.orderBy, direction: query.orderBy.direction === 'desc' ? 'asc' : 'desc' } });
    return {
      text: orderRowsPageSql(where.sql, orderBy, `$${n + 1}`, `$${n + 2}`, listJson(query), reversed, collect),
      values: [...where.values, Math.min(pageSize, total - offset), Math.max(0, total - offset - pageSize)],
    };
  }
  return {
    text: orderRowsPageSql(where.sql, orderBy, `$${n + 1}`, `$${n + 2}`, listJson(query), orderBy, collect),
    values: [...where.values, pageSize, offset],
  };
}

/**
 * The exact count of a list request the list cells do not answer. A `filter` alone or with
 * `{type}` and `status` is counted on `sales_order_search_texts` (migration 1766200000000: key,
 * type, status and the search text per order, kept by triggers in the orders' transactions): its
 * trigram index finds the candidates and each is checked on a row of ~100 bytes with the text
 * already computed, rather than on the ~670-byte order row with the text computed again (half the
 * time for a filter matching 9% of the orders). With `customerId` or `modifiedSince` it counts
 * sales_orders, through their indexes.
 */
export function orderCountQuery(companyId: string, query: SalesOrderListQuery): SqlQuery {
  if (query.filter !== undefined && query.customerId === undefined && query.modifiedSince === undefined) {
    const values: unknown[] = [companyId];
    const param = (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    };
    let where = 's.company_id = $1';
    if (query.type !== undefined) where += ` AND s.order_type = ${param(query.type)}`;
    if (query.status !== undefined) where += ` AND s.status = ${param(query.status)}`;
    where += ` AND s.search_text LIKE '%' || ${param(escapeLike(query.filter.toLowerCase()))} || '%' ESCAPE '\\'`;
    return { text: `SELECT count(*)::int AS total FROM sales_order_search_texts s WHERE ${where}`, values };
  }
  const where = whereClause(companyId, query);
  return { text: `SELECT count(*)::int AS total FROM sales_orders o WHERE ${where.sql}`, values: where.values };
}

export function orderByIdQuery(companyId: string, type: string, orderId: string, parts: ReadonlySet<ExpandPart>): SqlQuery {
  return {
    text: `SELECT ${orderJson(parts)} AS json, o.version::text AS version FROM sales_orders o
           WHERE o.company_id = $1 AND o.order_type = $2 AND o.order_id = $3`,
    values: [companyId, type, orderId],
  };
}
