/**
 * The order's money as the v3 document's totals and read views show it, in SQL shared by the totals
 * a write stores (sales-orders.repository.ts `recomputeTotals`) and the views computed when read
 * (sales-order-views.repository.ts), so the two agree to the cent by construction. `numeric`
 * throughout; every amount rounded half away from zero to cents (docs/api-conventions.md "Totals").
 *
 * - net of the lines: the sum of their extended prices (after line discounts), `order_total`;
 * - document discounts: each on that net, the applied total (skipped ones out) at most the net;
 * - a tax category's taxable amount: its lines' net less their share of the applied document
 *   discounts (rounded), plus the freight when the freight is in that category;
 * - a tax: taxable x rate / 100, 0 when exempt.
 */

/** The lines of order `o` (a sales_orders row or a row with its company_id and internal_id). */
export const linesOf = (o: string): string => `sales_order_lines l WHERE l.company_id = ${o}.company_id AND l.order_internal_id = ${o}.internal_id`;

/** One document discount `e` (jsonb) on the net `net`: its amount, or net x percent / 100. */
export const discountAmount = (e: string, net: string): string =>
  `coalesce((${e} ->> 'discountAmount')::numeric, round(${net} * (${e} ->> 'discountPercent')::numeric / 100, 2))`;

/** The document discounts (jsonb array) applied to the net: skipped ones left out, at most the net. */
export const appliedDiscounts = (discounts: string, net: string): string =>
  `least(${net}, (SELECT coalesce(sum(${discountAmount('e', net)}) FILTER (WHERE NOT (e ->> 'skipDiscount')::boolean), 0)
    FROM jsonb_array_elements(${discounts}) AS e))`;

/** What an order's taxable amounts are computed from. */
export interface TaxBase {
  /** The order row (`o`): its lines, freight and freight tax category. */
  order: string;
  /** The net of the lines. */
  net: string;
  /** The applied document discounts. */
  applied: string;
}

/** The taxable amount of tax category `category` (a text expression). */
export function categoryTaxable(base: TaxBase, category: string): string {
  const { order, net, applied } = base;
  return `(SELECT c.amount - CASE WHEN ${net} > 0 THEN round(${applied} * c.amount / ${net}, 2) ELSE 0 END
      + CASE WHEN ${order}.freight_tax_category_id = ${category} THEN ${order}.freight_cost + ${order}.freight_premium ELSE 0 END
    FROM (SELECT coalesce(sum(l.extended_price), 0) AS amount FROM ${linesOf(order)} AND l.tax_category_id = ${category}) AS c)`;
}

/** A tax entry `e`'s amount on its taxable amount `taxable`. */
export const taxAmount = (e: string, taxable: string): string =>
  `CASE WHEN (${e} ->> 'exemptTax')::boolean THEN 0 ELSE round(${taxable} * (${e} ->> 'taxRate')::numeric / 100, 2) END`;

/** Whether a tax entry is charged to the customer: statistical and reverse-charge taxes are not. */
export const taxCharged = (e: string): string => `NOT ((${e} ->> 'isStatisticalTax')::boolean OR (${e} ->> 'isReverseTax')::boolean)`;

/**
 * CTEs computing every stored total of the order `:companyId`/`:internalId` from its lines and
 * parts, ending in `totals` (one row): a write's UPDATE sets the header from it. `totals.rate` is
 * null when the order needs a rate to its company's base currency and none is in force on its date
 * (an order without a currency is in the base currency: its customer has none either).
 */
export const ORDER_TOTALS_CTES = `
  cur AS (SELECT * FROM sales_orders WHERE company_id = :companyId AND internal_id = :internalId),
  n AS (SELECT coalesce(sum(round(l.quantity * l.unit_price, 2)), 0) AS line_total, coalesce(sum(l.extended_price), 0) AS net,
               coalesce(sum(l.quantity), 0) AS qty
        FROM cur JOIN sales_order_lines l ON l.company_id = cur.company_id AND l.order_internal_id = cur.internal_id),
  a AS (SELECT ${appliedDiscounts('cur.discounts', 'n.net')} AS applied FROM cur, n),
  tx AS (SELECT t.e ->> 'taxCategoryId' AS cat, (t.e ->> 'exemptTax')::boolean AS exempt, ${taxCharged('t.e')} AS charged, t.e,
                ${categoryTaxable({ order: 'cur', net: 'n.net', applied: 'a.applied' }, "t.e ->> 'taxCategoryId'")} AS taxable
         FROM cur, n, a, jsonb_array_elements(cur.taxes) AS t(e)),
  cats AS (SELECT cat, max(taxable) AS taxable, bool_or(charged AND NOT exempt) AS charged, bool_and(exempt) AS exempt FROM tx GROUP BY cat),
  x AS (SELECT (SELECT coalesce(sum(${taxAmount('tx.e', 'tx.taxable')}) FILTER (WHERE tx.charged), 0) FROM tx) AS tax_total,
               (SELECT coalesce(sum(taxable) FILTER (WHERE charged), 0) FROM cats) AS taxable_total,
               (SELECT coalesce(sum(taxable) FILTER (WHERE exempt), 0) FROM cats) AS tax_exempt_total),
  r AS (SELECT cc.base_currency_id,
               CASE WHEN cc.base_currency_id IS NULL OR cur.currency_id IS NULL OR cc.base_currency_id = cur.currency_id THEN 1::numeric
                    ELSE (SELECT er.rate FROM exchange_rates er WHERE er.company_id = cur.company_id AND er.currency_id = cur.currency_id
                            AND er.effective_date <= (cur.order_date AT TIME ZONE 'UTC')::date ORDER BY er.effective_date DESC LIMIT 1) END AS rate
        FROM cur LEFT JOIN company_currencies cc ON cc.company_id = cur.company_id),
  totals AS (SELECT n.line_total, n.net, n.qty, a.applied, x.tax_total, x.taxable_total, x.tax_exempt_total,
                    n.net - a.applied + cur.freight_cost + cur.freight_premium + x.tax_total AS grand_total, r.base_currency_id, r.rate
             FROM cur, n, a, x, r)`;
