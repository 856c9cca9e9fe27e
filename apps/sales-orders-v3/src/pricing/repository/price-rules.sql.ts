import { extendedPriceSql } from '@erp/sales-orders-queries';

/**
 * The price rules as one SQL statement over an order's lines (docs/api-conventions.md "Price rules").
 * For each line that takes its price or discount from the rules, the one best rule:
 *   1. price list entries for the order's customer, then 2. for the customer's price class, then
 *   3. for everyone, then 4. the item's base price; all in the order's currency, entries in force on
 *   the order's date (UTC calendar day) and with a minimum quantity the line reaches.
 * Within a level: the highest minimum quantity reached (quantity breaks), then the latest
 * `effectiveFrom` (an undated entry last), then the lowest price. The chosen rule gives the price and
 * the discount (its `discountPercent`, 0 when it has none; a base price has none).
 *
 * `:lineIds` null reprices every line of the order (after its customer, currency or date changed).
 * Lines that keep both their price and their discount are never touched. The statement answers
 * the lines that need a rule price and have none: the use case refuses the write (400), so the
 * placeholder price they were written with is rolled back with it.
 */
const BEST_RULE = `
  SELECT r.unit_price, r.discount_percent FROM (
    SELECT e.unit_price, e.discount_percent, e.min_quantity, e.effective_from,
           CASE WHEN e.customer_id IS NOT NULL THEN 1 WHEN e.price_class_id IS NOT NULL THEN 2 ELSE 3 END AS level
    FROM price_list_entries e
    JOIN price_lists p ON p.company_id = e.company_id AND p.price_list_id = e.price_list_id
    WHERE e.company_id = o.company_id AND e.inventory_id = l.inventory_id AND p.currency_id = o.currency_id
      AND e.min_quantity <= l.quantity
      AND (e.effective_from IS NULL OR e.effective_from <= o.day)
      AND (e.effective_to IS NULL OR e.effective_to >= o.day)
      AND (e.customer_id IS NULL OR e.customer_id = o.customer_id)
      AND (e.price_class_id IS NULL OR e.price_class_id = o.price_class_id)
    UNION ALL
    SELECT b.unit_price, NULL, 0, NULL, 4
    FROM inventory_item_prices b
    WHERE b.company_id = o.company_id AND b.inventory_id = l.inventory_id AND b.currency_id = o.currency_id
  ) AS r
  ORDER BY r.level, r.min_quantity DESC, r.effective_from DESC NULLS LAST, r.unit_price
  LIMIT 1`;

export const REPRICE_LINES_SQL = `
  WITH o AS (
    SELECT so.company_id, so.internal_id, so.customer_id, so.currency_id, (so.order_date AT TIME ZONE 'UTC')::date AS day,
           (SELECT c.price_class_id FROM customer_price_classes c WHERE c.company_id = so.company_id AND c.customer_id = so.customer_id) AS price_class_id
    FROM sales_orders so WHERE so.company_id = :companyId AND so.internal_id = :internalId),
  priced AS (
    SELECT l.line_id, l.inventory_id, o.currency_id, o.day,
           CASE WHEN l.has_manual_price THEN l.unit_price ELSE rule.unit_price END AS unit_price,
           CASE WHEN l.has_manual_discount THEN l.discount_percent ELSE coalesce(rule.discount_percent, 0) END AS discount_percent
    FROM o
    JOIN sales_order_lines l ON l.company_id = o.company_id AND l.order_internal_id = o.internal_id
    LEFT JOIN LATERAL (${BEST_RULE}) AS rule ON true
    WHERE (:lineIds::int[] IS NULL OR l.line_id = ANY(:lineIds::int[])) AND NOT (l.has_manual_price AND l.has_manual_discount)),
  written AS (
    UPDATE sales_order_lines AS l
    SET unit_price = p.unit_price, discount_percent = p.discount_percent,
        extended_price = ${extendedPriceSql('l.quantity', 'p.unit_price', 'p.discount_percent')}
    FROM priced p
    WHERE l.company_id = :companyId AND l.order_internal_id = :internalId AND l.line_id = p.line_id AND p.unit_price IS NOT NULL
    RETURNING l.line_id)
  SELECT p.line_id, p.inventory_id, p.currency_id, to_char(p.day, 'YYYY-MM-DD') AS day FROM priced p WHERE p.unit_price IS NULL ORDER BY p.line_id`;
