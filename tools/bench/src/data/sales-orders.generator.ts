import type { ClientBase } from 'pg';
import { copyRows, type CopyValue, vacuumAnalyze } from './copy-rows';
import { SeededRandom } from './random';

/** How many orders one company gets, and how many lines each. */
export interface CompanyOrders {
  companyId: string;
  orders: number;
  linesPerOrder: number;
  /** A realistic spread for list filters; without it, 5 customers and one order a minute from 2025 (the expand scenario's data). */
  spread?: OrderSpread;
}

/** The shape of a company's order history, for filters and orderBy to have realistic selectivities. */
export interface OrderSpread {
  /** Customers, skewed: customer k (0-based) gets a share proportional to 1/sqrt(k+1). */
  customers: number;
  /** Creation times spread evenly over this many years before 2026-01-01. */
  years: number;
  /** The share of orders modified after creation (at a uniform later time up to 2026-01-01). */
  updatedShare: number;
  /** Order types by weight; each type numbers its own ids from 000001. */
  types: ReadonlyArray<readonly [string, number]>;
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
  /** Order ids (type SO) per company, in creation order (for companies without a spread). */
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

const NAME_FIRST = ['Nordic', 'Vestland', 'Fjell', 'Göta', 'Havne', 'Berg', 'Skog', 'Elve', 'Kyst', 'Dal', 'Sol', 'Nord', 'Øst', 'Vik'] as const;
const NAME_SECOND = ['Timber', 'Bygg', 'Handel', 'Trä', 'Lager', 'Sag', 'Tre', 'Hus', 'Tak', 'Vinduer', 'Maling', 'Stål'] as const;
const NAME_FORM = ['AS', 'AB', 'ANS', 'DA', 'Oy'] as const;

/** `count` customers (ids 100001...), names from a few parts (so a name fragment matches a share of them). */
function spreadCustomers(count: number): Array<readonly [string, string, string]> {
  return Array.from({ length: count }, (_, k) => {
    const name = `${NAME_FIRST[k % NAME_FIRST.length]} ${NAME_SECOND[Math.floor(k / NAME_FIRST.length) % NAME_SECOND.length]} ${NAME_FORM[k % NAME_FORM.length]} ${k + 1}`;
    return [String(100_001 + k), name, k % 3 === 0 ? 'SEK' : 'NOK'] as const;
  });
}

/**
 * Orders of a spread history, in creation order: a skewed customer, a status, a type numbered on
 * its own, creation times spread evenly over `years`, a share of them modified later.
 */
function* spreadOrders(companyId: string, count: number, linesPerOrder: number, spread: OrderSpread, random: SeededRandom): Generator<CopyValue[]> {
  const customers = spreadCustomers(spread.customers);
  const end = Date.UTC(2026, 0, 1);
  const start = end - spread.years * 365.25 * DAY_MS;
  const step = (end - start) / count;
  const next = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    const type = random.weighted(spread.types);
    const number = (next.get(type) ?? 0) + 1;
    next.set(type, number);
    // 1/sqrt(k+1) shares: u^2 of a uniform u.
    const [customerId, customerName, currency] = customers[Math.min(customers.length - 1, Math.floor(random.next() ** 2 * customers.length))];
    const createdMs = Math.floor(start + i * step + random.next() * step);
    const modifiedMs = random.next() < spread.updatedShare ? createdMs + Math.floor(random.next() * (end - createdMs)) : createdMs;
    const created = new Date(createdMs).toISOString();
    const orderDate = new Date(Math.floor(createdMs / DAY_MS) * DAY_MS).toISOString();
    yield [
      companyId, type, String(number).padStart(6, '0'), random.weighted(STATUSES), orderDate, orderDate, currency, customerId, customerName,
      `PO-${random.digits(6)}`, EMPTY_PARTY, EMPTY_PARTY, EMPTY_PAYMENT, '[]', linesPerOrder, created, new Date(modifiedMs).toISOString(), 0,
    ];
  }
}

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
    options.companies.flatMap((c) =>
      (c.spread ? spreadCustomers(c.spread.customers) : CUSTOMERS).map(([id, name, currency]) => [c.companyId, id, name, 'Active', currency, 1]),
    ),
  );
  for (const company of options.companies) {
    const ids = Array.from({ length: company.orders }, (_, i) => String(i + 1).padStart(6, '0'));
    orderIds[company.companyId] = ids;
    const spread = company.spread;
    function* orders(): Generator<CopyValue[]> {
      if (spread) {
        yield* spreadOrders(company.companyId, company.orders, company.linesPerOrder, spread, random);
        return;
      }
      for (const [i, orderId] of ids.entries()) {
        const [customerId, customerName, currency] = random.pick(CUSTOMERS);
        const created = new Date(epoch + i * 60_000 + random.int(0, 59_999)).toISOString();
        const orderDate = new Date(Math.floor(Date.parse(created) / DAY_MS) * DAY_MS).toISOString();
        yield [
          company.companyId, 'SO', orderId, random.weighted(STATUSES), orderDate, orderDate, currency, customerId, customerName,
          `PO-${random.digits(6)}`, EMPTY_PARTY, EMPTY_PARTY, EMPTY_PAYMENT, '[]', company.linesPerOrder, created, created, 0,
        ];
      }
    }
    orderCount += await copyRows(
      client,
      'sales_orders',
      ['company_id', 'order_type', 'order_id', 'status', 'order_date', 'request_on', 'currency_id', 'customer_id', 'customer_name',
        'customer_order', 'billing', 'shipping', 'payment_settings', 'attachments', 'last_line_id', 'created_at', 'last_modified_at',
        // Required since 1766960000000; set from the lines below, as the service does in the order's transaction.
        'grand_total'],
      orders(),
    );
    // internal_id is GENERATED ALWAYS: read back what the orders got, in id order.
    const { rows } = await client.query<{ internal_id: string }>(
      `SELECT internal_id::text FROM sales_orders WHERE company_id = $1 ${spread ? '' : `AND order_type = 'SO'`} ORDER BY order_id, order_type`,
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
    // Statistics first: planned without them (autovacuum not yet there, as in a full run whose
    // earlier parts keep it busy), this join of the new orders with their summed lines once ran for
    // over 14 minutes where it usually takes seconds.
    await client.query('ANALYZE sales_orders, sales_order_lines');
    await client.query(
      `UPDATE sales_orders AS o SET line_total = t.lt, order_total = t.ot, grand_total = t.ot, discount_total = t.lt - t.ot, order_qty = t.q
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
  // Every table the load wrote, the triggers' search texts and count cells included: without their
  // statistics and visibility map, what the searches read depended on whether autovacuum had
  // reached them before the measurement (orders' `filter=` page 1 took 21.6 ms in one run and
  // 45 ms in the next two).
  await vacuumAnalyze(client, [
    'sales_orders',
    'sales_order_lines',
    'customer_snapshots',
    'sales_order_search_texts',
    'sales_order_time_cells',
    'sales_order_id_cells',
  ]);
  return { orders: orderCount, lines: lineCount, orderIds, millis: Date.now() - started };
}
