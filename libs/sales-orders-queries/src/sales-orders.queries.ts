import type { ExpandPart } from './order-model';
import type { SalesOrderListQuery } from './sales-order-list.query';

/**
 * The order's wire shapes, built by PostgreSQL. Reads return this text as it is: no ORM objects,
 * no JSON.parse/stringify per row, so a page of 100 orders with hundreds of lines each costs the
 * service little more than copying bytes from the database to the socket.
 *
 * - Timestamps: UTC, ISO 8601 with milliseconds and `Z` (what is stored), so a value read back
 *   works unchanged as `modifiedSince`.
 * - Decimals: JSON numbers whose text is PostgreSQL's exact `numeric` text (trailing zeros
 *   trimmed); no value ever passes through a float in this service.
 */

export interface SqlQuery {
  text: string;
  values: unknown[];
}

/** A timestamptz as the API shows it. */
export function ts(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** The value `filter` is matched against; identical to the trigram index expression of the migration and to the `search_text` that migration 1766200000000 keeps per order. */
export const SEARCH_TEXT = `lower(o.order_id || chr(1) || coalesce(o.customer_order, '') || chr(1) || o.customer_name)`;

/** extended price = quantity * unit price * (1 - discount % / 100), rounded half away from zero to cents. */
export function extendedPriceSql(quantity: string, unitPrice: string, discountPercent: string): string {
  return `round(${quantity} * ${unitPrice} * (1 - ${discountPercent} / 100), 2)`;
}

let aliasCounter = 0;

/**
 * A JSON object built by PostgreSQL from `[key, SQL expression]` pairs, in that key order.
 * row_to_json writes compact JSON (json_build_object adds a space around every ":" and ","),
 * which is about a tenth fewer bytes on a page of orders with hundreds of lines each.
 */
export function jsonObject(fields: Array<[string, string]>): string {
  const alias = `j${++aliasCounter}`;
  const columns = fields.map(([key, sql]) => `${sql} AS "${key}"`).join(', ');
  return `(SELECT row_to_json(${alias}) FROM (SELECT ${columns}) AS ${alias})`;
}

/**
 * A line's columns as the API names them. A page of 100 orders holds tens of thousands of lines,
 * so each line costs one row_to_json of this flat row and nothing more: no nested sub-select
 * (the constant-shaped `inventory` is concatenated, with to_json escaping the id and the item's
 * description the line keeps).
 */
const LINE_COLUMNS = `l.line_id AS "lineId",
    l.sort_order AS "sortOrder",
    ('{"id":' || to_json(l.inventory_id)::text || ',"description":' || coalesce(to_json(l.item_description)::text, 'null') || '}')::json AS "inventory",
    l.description AS "description",
    trim_scale(l.quantity) AS "quantity",
    trim_scale(l.unit_price) AS "unitPrice",
    trim_scale(l.discount_percent) AS "discountPercent",
    trim_scale(l.extended_price) AS "extendedPrice",
    l.unit_of_measure AS "unitOfMeasure",
    l.warehouse_id AS "warehouseId",
    ${ts('l.request_date')} AS "requestDate",
    l.note AS "note",
    l.tax_category_id AS "taxCategoryId",
    l.commissionable AS "commissionable",
    l.has_manual_price AS "hasManualPrice",
    l.has_manual_discount AS "hasManualDiscount"`;

/**
 * Every line of the order, in sort order, as the text of one JSON array (the lines are never
 * loaded into the service). Kept as text and spliced into the order's text: casting it to json
 * to nest it would make PostgreSQL parse the whole array again.
 */
const LINES_OF_ORDER_TEXT = `(SELECT coalesce('[' || string_agg(row_to_json(x)::text, ',' ORDER BY x."sortOrder", x."lineId") || ']', '[]')
    FROM (SELECT ${LINE_COLUMNS} FROM sales_order_lines l WHERE l.company_id = o.company_id AND l.order_internal_id = o.internal_id) AS x)`;

/** The customer part reads the snapshot: the customer's current name (the order keeps the name it was made with). */
const CUSTOMER_JSON = jsonObject([
  ['id', 'o.customer_id'],
  [
    'name',
    `coalesce((SELECT cs.name FROM customer_snapshots cs WHERE cs.company_id = o.company_id AND cs.customer_id = o.customer_id), o.customer_name)`,
  ],
  ['order', 'o.customer_order'],
  ['refNo', 'o.customer_ref_no'],
]);

/**
 * A stored `billing`/`shipping` (`{ address, contact }`, the request's shape) as the v3 document's
 * SalesOrderBillingDto / SalesOrderShippingDto show it: the address's `countryId` and `stateId` become
 * `country` and `county` (`{ id, name }`, AddressDto's names), and what is not set is left out rather
 * than null, since the document's nested objects are not nullable.
 */
function addressAndContactJson(column: string): string {
  const address = `(${column} -> 'address')`;
  const pair = (key: string, field: string) =>
    `CASE WHEN ${address} ->> '${field}' IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('${key}', jsonb_build_object('id', ${address} ->> '${field}', 'name', NULL)) END`;
  const addressPart = `CASE WHEN jsonb_typeof(${address}) = 'object'
      THEN jsonb_build_object('address', (${address} - 'countryId' - 'stateId') || ${pair('country', 'countryId')} || ${pair('county', 'stateId')})
      ELSE '{}'::jsonb END`;
  const contactPart = `CASE WHEN jsonb_typeof(${column} -> 'contact') = 'object' THEN jsonb_build_object('contact', ${column} -> 'contact') ELSE '{}'::jsonb END`;
  return `(${addressPart} || ${contactPart})`;
}

/** `{ key: <column -> field> }` when that is an object, else `{}`: a part the document does not let be null. */
function objectIfSet(key: string, column: string, field: string): string {
  return `CASE WHEN jsonb_typeof(${column} -> '${field}') = 'object' THEN jsonb_build_object('${key}', ${column} -> '${field}') ELSE '{}'::jsonb END`;
}

/**
 * The order's totals as the v3 document's SalesOrderTotalsDto names them, from the columns every
 * write stores (sales-orders-v3 order-totals.sql.ts): each also in the base currency, at the rate
 * the order keeps (its date's), rounded half away from zero to cents. `grand_total` is null on orders
 * not written since it exists: their order total was the lines' net.
 */
export const ORDER_TOTAL = 'coalesce(o.grand_total, o.order_total)';
const TOTALS: Array<[string, string]> = [
  ['discountTotal', 'o.discount_total + o.document_discount_total'],
  ['freightCost', 'o.freight_cost'],
  ['freightTotal', 'o.freight_cost + o.freight_premium'],
  ['orderTotal', ORDER_TOTAL],
  ['taxExemptTotal', 'o.tax_exempt_total'],
  ['taxTotal', 'o.tax_total'],
  ['taxableTotal', 'o.taxable_total'],
];

/** `[key, amount]` and `[keyInBaseCurrency, amount x rate]` (`amount` of the document's freight: `amountInBaseCurrency`). */
function inBaseCurrencyToo(key: string, amount: string): Array<[string, string]> {
  return [
    [key, `trim_scale(${amount})`],
    [`${key}InBaseCurrency`, `trim_scale(round((${amount}) * o.exchange_rate, 2))`],
  ];
}

/** `expand=freight`: the document's SalesOrderFreightDto (amount = cost + premium: there are no ship-via terms). */
const FREIGHT_JSON = jsonObject([
  ...inBaseCurrencyToo('amount', 'o.freight_cost + o.freight_premium'),
  ...inBaseCurrencyToo('cost', 'o.freight_cost'),
  ...inBaseCurrencyToo('premiumAmount', 'o.freight_premium'),
  ['taxCategoryId', 'o.freight_tax_category_id'],
]);

/** A summary row of the list without expand. */
export const SUMMARY_JSON = `${jsonObject([
  ['type', 'o.order_type'],
  ['orderId', 'o.order_id'],
  ['status', 'o.status'],
  ['date', ts('o.order_date')],
  ['lastModified', ts('o.last_modified_at')],
  ['customerId', 'o.customer_id'],
  ['customerName', 'o.customer_name'],
  ['customerOrder', 'o.customer_order'],
  ['customerRefNo', 'o.customer_ref_no'],
  ['currency', 'o.currency_id'],
  ['orderTotal', `trim_scale(${ORDER_TOTAL})`],
  ['orderQty', 'trim_scale(o.order_qty)'],
  ['requestOn', ts('o.request_on')],
  ['description', 'o.description'],
])}::text`;

/** The full order with the requested parts; parts not expanded are left out. */
export function orderJson(parts: ReadonlySet<ExpandPart>): string {
  const head: Array<[string, string]> = [
    ['type', 'o.order_type'],
    ['orderId', 'o.order_id'],
    ['date', ts('o.order_date')],
    ['requestOn', ts('o.request_on')],
    ['cancelBy', ts('o.cancel_by')],
    ['description', 'o.description'],
  ];
  if (parts.has('note')) head.push(['note', 'o.note']);
  head.push(
    ['currencyId', 'o.currency_id'],
    [
      'status',
      jsonObject([
        ['description', 'o.status'],
        ['hold', `o.status = 'Hold'`],
        ['cancelled', `o.status = 'Cancelled'`],
      ]),
    ],
  );
  if (parts.has('customer')) head.push(['customer', CUSTOMER_JSON]);
  if (parts.has('billing')) head.push(['billing', addressAndContactJson('o.billing')]);
  if (parts.has('shipping')) head.push(['shipping', addressAndContactJson('o.shipping')]);
  // The stored payment `method` is the document's paymentSettings.paymentMethod; the payment `terms`
  // are financialInformation.terms there (SalesOrderPaymentDto has no terms).
  if (parts.has('payment')) head.push(['paymentSettings', objectIfSet('paymentMethod', 'o.payment_settings', 'method')]);
  if (parts.has('financialInformation')) head.push(['financialInformation', objectIfSet('terms', 'o.payment_settings', 'terms')]);
  if (parts.has('freight')) head.push(['freight', FREIGHT_JSON]);
  // The salesperson (no catalogue of salespersons: the description is unknown) and whether the
  // order has a ROT/RUT deduction, the sources of the order's read views (sales-orders-v3).
  head.push(
    ['salesPerson', jsonObject([['id', 'o.sales_person_id'], ['description', 'NULL::text']])],
    ['isRotRutDeductable', 'o.rot_rut IS NOT NULL'],
  );
  head.push(
    [
      'totals',
      jsonObject(TOTALS.flatMap(([key, amount]) => inBaseCurrencyToo(key, amount))),
    ],
    ['orderQty', 'trim_scale(o.order_qty)'],
  );
  const tail: Array<[string, string]> = [];
  if (parts.has('attachments')) tail.push(['attachments', 'o.attachments']);
  // `version`: the ETag's value in base64, as the v3 document's `format: byte` has it.
  tail.push(['lastModified', ts('o.last_modified_at')], ['version', `encode(convert_to(o.version::text, 'UTF8'), 'base64')`]);
  // {head...} + ,"lines":[...] + ,tail...}: both objects are compact, so the splice is exact.
  const lines = parts.has('lines') ? ` || ',"lines":' || ${LINES_OF_ORDER_TEXT}` : '';
  return `(left(${jsonObject(head)}::text, -1)${lines} || ',' || substr(${jsonObject(tail)}::text, 2))`;
}

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

/** One page of an order's lines; as for orders, the JSON is built only for the page's rows. */
export function linePageQuery(companyId: string, orderInternalId: string, pageSize: number, offset: number): SqlQuery {
  return {
    text: `SELECT row_to_json(x)::text AS json
           FROM (SELECT ${LINE_COLUMNS}
                 FROM (SELECT * FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2
                       ORDER BY l.sort_order, l.line_id LIMIT $3 OFFSET $4) AS l) AS x
           ORDER BY x."sortOrder", x."lineId"`,
    values: [companyId, orderInternalId, pageSize, offset],
  };
}

export function lineCountQuery(companyId: string, orderInternalId: string): SqlQuery {
  return {
    text: `SELECT count(*)::int AS total FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2`,
    values: [companyId, orderInternalId],
  };
}

export function lineByIdQuery(companyId: string, orderInternalId: string, lineId: number): SqlQuery {
  return {
    text: `SELECT row_to_json(x)::text AS json
           FROM (SELECT ${LINE_COLUMNS} FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2 AND l.line_id = $3) AS x`,
    values: [companyId, orderInternalId, lineId],
  };
}
