import type { ClientBase } from 'pg';
import { copyRows, type CopyValue } from './copy-rows';
import { SeededRandom } from './random';

/** How many orders one company gets, and how many lines each. */
export interface CompanyOrders {
  companyId: string;
  orders: number;
  linesPerOrder: number;
}

export interface LoadSalesOrdersOptions {
  companies: CompanyOrders[];
  /** Same seed, same rows. Default 42. */
  seed?: number;
  log?: (line: string) => void;
}

export interface SalesOrdersLoadReport {
  orders: number;
  lines: number;
  /** Order ids (type SO) per company, in creation order. */
  orderIds: Record<string, string[]>;
  millis: number;
}

const CUSTOMERS = [
  ['10001', 'Nordic Timber AS', 'NOK'],
  ['10002', 'Vestland Bygg AS', 'NOK'],
  ['10003', 'Fjellhandel ANS', 'NOK'],
  ['10004', 'Göta Trä AB', 'SEK'],
  ['10005', 'Havnelager DA', 'NOK'],
] as const;
const ITEMS = [
  ['PLANK-4898', 'Pine plank 48x98, planed, per metre', 'M'],
  ['BOARD-2295', 'Spruce board 22x95, per metre', 'M'],
  ['SCREW-550', 'Deck screws 5.0x50, box of 250', 'BOX'],
  ['GLUE-1L', 'Wood glue, 1 litre', 'PCS'],
  ['OSB-12', 'OSB panel 12 mm, 1220x2440', 'PCS'],
  ['ROOF-T20', 'Roof tile, concrete, black', 'PCS'],
] as const;
const STATUSES = [
  ['Open', 60],
  ['Hold', 10],
  ['BackOrder', 10],
  ['Completed', 15],
  ['Cancelled', 5],
] as const;
const DISCOUNTS = [0, 0, 2.5, 5, 7.5] as const;
const EMPTY_PARTY = '{"address": null, "contact": null}';
const EMPTY_PAYMENT = '{"terms": null, "method": null}';
const DAY_MS = 24 * 3600 * 1000;

/**
 * Cents of quantity x unit price x (1 - discount % / 100), rounded half away from zero: exactly
 * what the table's CHECK computes in numeric (all values here are positive; integer arithmetic,
 * no float rounding).
 */
export function extendedPriceCents(quantity: number, unitPriceCents: number, discountPercent: number): number {
  const numerator = quantity * unitPriceCents * (1000 - discountPercent * 10);
  return Math.floor((numerator + 500) / 1000);
}

const money = (cents: number) => (cents / 100).toFixed(2);

/**
 * Loads sales orders (type SO, ids 000001...) and their lines with COPY from a seeded generator:
 * same seed, same rows. Customer snapshots for the orders' customers are added too, and the
 * orders' totals are computed from their lines by PostgreSQL (as the service keeps them).
 */
export async function loadSalesOrders(client: ClientBase, options: LoadSalesOrdersOptions): Promise<SalesOrdersLoadReport> {
  const started = Date.now();
  const random = new SeededRandom(options.seed ?? 42);
  const log = options.log ?? (() => undefined);
  const epoch = Date.UTC(2025, 0, 1);
  let lineCount = 0;
  let orderCount = 0;
  const orderIds: Record<string, string[]> = {};

  await copyRows(
    client,
    'customer_snapshots',
    ['company_id', 'customer_id', 'name', 'status', 'currency_id', 'source_version'],
    options.companies.flatMap((c) => CUSTOMERS.map(([id, name, currency]) => [c.companyId, id, name, 'Active', currency, 1])),
  );
  for (const company of options.companies) {
    const ids = Array.from({ length: company.orders }, (_, i) => String(i + 1).padStart(6, '0'));
    orderIds[company.companyId] = ids;
    function* orders(): Generator<CopyValue[]> {
      for (const [i, orderId] of ids.entries()) {
        const [customerId, customerName, currency] = random.pick(CUSTOMERS);
        const created = new Date(epoch + i * 60_000 + random.int(0, 59_999)).toISOString();
        const orderDate = new Date(Math.floor(Date.parse(created) / DAY_MS) * DAY_MS).toISOString();
        yield [
          company.companyId, 'SO', orderId, random.weighted(STATUSES), orderDate, orderDate, currency, customerId, customerName,
          `PO-${random.digits(6)}`, EMPTY_PARTY, EMPTY_PARTY, EMPTY_PAYMENT, '[]', company.linesPerOrder, created, created,
        ];
      }
    }
    orderCount += await copyRows(
      client,
      'sales_orders',
      ['company_id', 'order_type', 'order_id', 'status', 'order_date', 'request_on', 'currency_id', 'customer_id', 'customer_name',
        'customer_order', 'billing', 'shipping', 'payment_settings', 'attachments', 'last_line_id', 'created_at', 'last_modified_at'],
      orders(),
    );
    // internal_id is GENERATED ALWAYS: read back what the orders got, in id order.
    const { rows } = await client.query<{ internal_id: string }>(
      `SELECT internal_id::text FROM sales_orders WHERE company_id = $1 AND order_type = 'SO' ORDER BY order_id`,
      [company.companyId],
    );
    function* lines(): Generator<CopyValue[]> {
      for (const { internal_id: internalId } of rows) {
        for (let lineId = 1; lineId <= company.linesPerOrder; lineId++) {
          const [inventoryId, description, unit] = random.pick(ITEMS);
          const quantity = random.int(1, 40);
          const unitPriceCents = random.int(385, 250_000);
          const discount = random.pick(DISCOUNTS);
          yield [
            company.companyId, internalId, lineId, lineId, inventoryId, description, quantity, money(unitPriceCents), discount,
            money(extendedPriceCents(quantity, unitPriceCents, discount)), unit, 'MAIN', null, null,
          ];
        }
      }
    }
    lineCount += await copyRows(
      client,
      'sales_order_lines',
      ['company_id', 'order_internal_id', 'line_id', 'sort_order', 'inventory_id', 'description', 'quantity', 'unit_price',
        'discount_percent', 'extended_price', 'unit_of_measure', 'warehouse_id', 'request_date', 'note'],
      lines(),
    );
    await client.query(
      `UPDATE sales_orders AS o SET line_total = t.lt, order_total = t.ot, discount_total = t.lt - t.ot, order_qty = t.q
       FROM (SELECT order_internal_id, sum(round(quantity * unit_price, 2)) AS lt, sum(extended_price) AS ot, sum(quantity) AS q
             FROM sales_order_lines WHERE company_id = $1 GROUP BY order_internal_id) AS t
       WHERE o.company_id = $1 AND o.internal_id = t.order_internal_id`,
      [company.companyId],
    );
    // The items the lines name, in the company's inventory catalogue (as order writes require of new lines).
    await client.query(
      `INSERT INTO inventory_items (company_id, inventory_id, description, base_unit, attributes, availability, availability_modified_at, created_at, last_modified_at)
       SELECT $1, i.id, i.description, i.unit, '{}'::jsonb, '[]'::jsonb, now(), now(), now()
       FROM jsonb_to_recordset($2::jsonb) AS i(id text, description text, unit text)
       ON CONFLICT (company_id, inventory_id) DO NOTHING`,
      [company.companyId, JSON.stringify(ITEMS.map(([id, description, unit]) => ({ id, description, unit })))],
    );
    log(`${company.companyId}: ${company.orders} orders x ${company.linesPerOrder} lines`);
  }
  await client.query('VACUUM ANALYZE sales_orders');
  await client.query('VACUUM ANALYZE sales_order_lines');
  await client.query('VACUUM ANALYZE customer_snapshots');
  return { orders: orderCount, lines: lineCount, orderIds, millis: Date.now() - started };
}
