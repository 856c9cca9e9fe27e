import type { ExpandPart } from './order-model';

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

/** A timestamptz as the API shows it. */
export function ts(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
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
export const LINE_COLUMNS = `l.line_id AS "lineId",
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
