import { ORDER_TOTAL } from '@erp/sales-orders-queries';

const text = (amount: string): string => `trim_scale(${amount})::text`;

/**
 * What a created or updated order's event adds to the webhook payload (libs/contracts
 * SalesOrderEventData): its currency, totals and priced lines, from a sales_orders row `o`,
 * decimals as exact text. Read in the write's own statement, like the order the write answers.
 */
export const ORDER_EVENT_DATA = `json_build_object(
    'currencyId', o.currency_id,
    'totals', json_build_object(
      'discountTotal', ${text('o.discount_total + o.document_discount_total')},
      'freightTotal', ${text('o.freight_cost + o.freight_premium')},
      'taxTotal', ${text('o.tax_total')},
      'orderTotal', ${text(ORDER_TOTAL)},
      'orderTotalInBaseCurrency', ${text(`round(${ORDER_TOTAL} * o.exchange_rate, 2)`)}),
    'lines', (SELECT coalesce(json_agg(json_build_object(
        'lineId', l.line_id, 'inventoryId', l.inventory_id, 'quantity', ${text('l.quantity')}, 'unitPrice', ${text('l.unit_price')},
        'discountPercent', ${text('l.discount_percent')}, 'extendedPrice', ${text('l.extended_price')},
        'hasManualPrice', l.has_manual_price, 'hasManualDiscount', l.has_manual_discount) ORDER BY l.sort_order, l.line_id), '[]')
      FROM sales_order_lines l WHERE l.company_id = o.company_id AND l.order_internal_id = o.internal_id))::text`;
