import { OUTBOX_FILL, PROCESSED_EVENTS_FILL, RUNNER_TABLES } from './messaging.workload';
import { IDEMPOTENCY_KEYS_FILL, idempotencyKeyInsert } from './idempotency.workload';
import { companyOf, companySql, outboxInsert, type ServiceWorkload, type WriteContext, type WriteStatement } from './workload';

const LINES_PER_ORDER = 3;
const ADDRESS = `'{"address": {"addressLine1": "Gatan 1", "city": "Stad", "countryId": "SE"}, "contact": {"name": "Kontakt"}}'::jsonb`;
const orderId = (id: number) => String(id).padStart(10, '0');

/**
 * The header's totals as the service writes them: from release 1.0.0 on, `grand_total` too (the new
 * code always writes it; the contract migration 1766960000000 then requires it).
 */
function totalsUpdate(context: WriteContext, company: string, id: number): WriteStatement {
  const grandTotal = context.has('sales_orders.grand_total') ? ', grand_total = order_total' : '';
  return {
    text: `UPDATE sales_orders AS o SET line_total = 300, order_total = 300, order_qty = 3${grandTotal}
           WHERE o.company_id = $1 AND o.internal_id = $2`,
    values: [company, id],
  };
}

/**
 * sales-orders-v3: orders and their lines (three each) grow with the business. Its writes are the
 * PATCH (the conditional header UPDATE, a line UPDATE, the totals recomputed on the header, the
 * outbox event) and the POST (header, lines, totals, event), in the request's company scope.
 */
export const SALES_ORDERS_WORKLOAD: ServiceWorkload = {
  service: 'sales-orders-v3',
  writesAs: 'company',
  fills: [
    {
      table: 'sales_orders',
      sql: (rows) => [
        `INSERT INTO sales_orders (internal_id, company_id, order_type, order_id, status, order_date, currency_id, customer_id,
           customer_name, customer_order, billing, shipping, payment_settings, attachments, line_total, order_total, order_qty,
           last_line_id, created_at, last_modified_at)
         OVERRIDING SYSTEM VALUE
         SELECT i, ${companySql('i')}, (ARRAY['SO', 'SO', 'SO', 'QT'])[1 + i % 4], lpad(i::text, 10, '0'),
                (ARRAY['Open', 'Open', 'Completed', 'Completed', 'Completed', 'Hold', 'Cancelled'])[1 + i % 7],
                now() - interval '5 years' + i * (interval '5 years' / ${rows}), 'SEK', 'C' || (i % 5000),
                'Kund ' || (i % 5000) || ' Bygg AB', 'PO-' || (i * 31 % 100000), ${ADDRESS}, ${ADDRESS}, '{"terms": "30D"}'::jsonb, '[]'::jsonb,
                300, 300, 3, ${LINES_PER_ORDER},
                now() - interval '5 years' + i * (interval '5 years' / ${rows}),
                now() - interval '5 years' + i * (interval '5 years' / ${rows}) + (i % 30) * interval '1 day'
         FROM generate_series(1, ${rows}) i`,
        `SELECT setval(pg_get_serial_sequence('sales_orders', 'internal_id'), ${rows})`,
        `INSERT INTO sales_order_counters (company_id, order_type, last_value)
         SELECT ${companySql('k')}, t, ${rows} FROM generate_series(0, 2) k CROSS JOIN unnest(ARRAY['SO', 'QT']) t`,
      ],
    },
    {
      table: 'sales_order_lines',
      needs: ['sales_orders'],
      sql: () => [
        `INSERT INTO sales_order_lines (company_id, order_internal_id, line_id, sort_order, inventory_id, description, quantity,
           unit_price, discount_percent, extended_price, unit_of_measure, warehouse_id)
         SELECT o.company_id, o.internal_id, l, l, 'ITEM-' || (o.internal_id * l % 2000), 'Artikel ' || l, 1, 100, 0, 100, 'ST', 'MAIN'
         FROM sales_orders o CROSS JOIN generate_series(1, ${LINES_PER_ORDER}) l`,
      ],
    },
    OUTBOX_FILL,
    IDEMPOTENCY_KEYS_FILL,
    PROCESSED_EVENTS_FILL,
  ],
  bounded: {
    ...RUNNER_TABLES,
    sales_order_counters: 'one row per company and order type',
    customer_snapshots: 'one row per customer that has orders (the customers service holds them)',
    inventory_items: 'the catalogue: thousands per company',
    inventory_warehouses: 'a few per company',
    inventory_locations: 'a few per warehouse',
    sales_order_time_cells: 'counts derived from sales_orders by its triggers',
    sales_order_id_cells: 'counts derived from sales_orders by its triggers',
    sales_order_search_texts: 'derived from sales_orders by its triggers (one narrow row per order, backfilled by its migration)',
    inventory_item_prices: 'per catalogue item and currency',
    price_classes: 'a few per company',
    customer_price_classes: 'at most one per customer',
    price_lists: 'a few per company',
    price_list_entries: 'per price list and item',
    company_currencies: 'one row per company',
    exchange_rates: 'per company, currency and day',
  },
  writes: [
    {
      name: 'PATCH order',
      weight: 4,
      needs: ['sales_orders', 'sales_order_lines'],
      build(context) {
        const id = context.random(context.rows);
        const company = companyOf(id);
        return {
          company,
          statements: [
            {
              text: `UPDATE sales_orders AS o SET version = nextval('sales_order_version_seq'), last_modified_at = now(), note = $3
                     WHERE o.company_id = $1 AND o.internal_id = $2`,
              values: [company, id, `note ${Date.now()}`],
            },
            {
              text: `UPDATE sales_order_lines AS l SET quantity = 1, extended_price = 100
                     WHERE l.company_id = $1 AND l.order_internal_id = $2 AND l.line_id = 1`,
              values: [company, id],
            },
            totalsUpdate(context, company, id),
            ...outboxInsert(context, 'SALES_ORDER_UPDATED', `${company}:${id}`),
            ...idempotencyKeyInsert(context, company),
          ],
        };
      },
    },
    {
      name: 'POST order',
      weight: 1,
      needs: ['sales_orders', 'sales_order_lines'],
      build(context) {
        const id = context.nextId();
        const company = companyOf(id);
        const grandTotal = context.has('sales_orders.grand_total');
        return {
          company,
          statements: [
            {
              text: `WITH o AS (
                       INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, customer_id, customer_name,
                         billing, shipping, payment_settings, attachments, last_line_id, created_at, last_modified_at${grandTotal ? ', grand_total' : ''})
                       VALUES ($1, 'SO', $2, 'Open', now(), 'C1', 'Kund 1 Bygg AB', ${ADDRESS}, ${ADDRESS}, '{}', '[]', ${LINES_PER_ORDER}, now(), now()${grandTotal ? ', 300' : ''})
                       RETURNING company_id, internal_id)
                     INSERT INTO sales_order_lines (company_id, order_internal_id, line_id, sort_order, inventory_id, quantity, unit_price, extended_price)
                     SELECT o.company_id, o.internal_id, l, l, 'ITEM-1', 1, 100, 100 FROM o CROSS JOIN generate_series(1, ${LINES_PER_ORDER}) l`,
              values: [company, orderId(id)],
            },
            {
              text: `UPDATE sales_orders AS o SET line_total = 300, order_total = 300, order_qty = 3 WHERE o.company_id = $1 AND o.order_id = $2`,
              values: [company, orderId(id)],
            },
            ...outboxInsert(context, 'SALES_ORDER_CREATED', `${company}:${orderId(id)}`),
            ...idempotencyKeyInsert(context, company),
          ],
        };
      },
    },
  ],
};
