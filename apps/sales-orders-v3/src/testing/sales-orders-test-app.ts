import type { Client } from 'pg';
import { CustomerEventData, customerLink, type CustomerStatus, INTERNAL_ROUTES } from '@erp/contracts';
import { startServiceTestApp, type ServiceTestApp } from '@erp/testing';
import { SalesOrdersAppModule } from '../app.module';
import { SalesOrdersConfig } from '../config';
import { SALES_ORDERS_ENTITIES, SALES_ORDERS_MIGRATIONS } from '../database';

/** A sales-orders-v3 instance on its own fresh database and Kafka topic prefix, plus the tools its tests need. */
export interface SalesOrdersTestApp extends ServiceTestApp {
  /** Standard v3 request headers for a company, JSON body included. */
  headers(company?: string, extra?: Record<string, string>): Promise<Record<string, string>>;
}

export async function startSalesOrdersTestApp(
  name: string,
  env: Record<string, string> = {},
): Promise<SalesOrdersTestApp> {
  const base = await startServiceTestApp({
    name: 'sales-orders-v3',
    instance: `sales-orders-${name}`,
    config: SalesOrdersConfig,
    module: (config) => SalesOrdersAppModule.forRoot(config),
    errorFamily: 'problem',
    entities: SALES_ORDERS_ENTITIES,
    migrations: SALES_ORDERS_MIGRATIONS,
    internalApis: { CUSTOMERS_URL: 'customers-v1' },
    env,
  });
  return {
    ...base,
    async headers(company = '1000001', extra = {}) {
      const headers = await base.auth.headers({ company, applicationType: null });
      return { ...headers, 'content-type': 'application/json', ...extra };
    },
  };
}

/**
 * Customers as customers-v1 has them (its internal API's stub answers them) and as the customer
 * events have brought them into the snapshot (fast setup, version 1).
 */
export async function insertCustomerSnapshots(
  t: Pick<SalesOrdersTestApp, 'sql' | 'internalApis'>,
  companyId: string,
  customers: Array<{ id: string; name?: string; status?: string; currencyId?: string | null }>,
): Promise<void> {
  const owner = t.internalApis['customers-v1'];
  if (!owner) throw new Error('the sales-orders test app has no customers-v1 stub');
  for (const c of customers) {
    const customer = {
      number: c.id,
      name: c.name ?? `Customer ${c.id}`,
      status: (c.status ?? 'Active') as CustomerStatus,
      currencyId: c.currencyId === undefined ? 'NOK' : c.currencyId,
      version: '1',
      lastModifiedDateTime: '2026-01-01T00:00:00.000',
      link: customerLink(c.id),
    };
    owner.answer(companyId, INTERNAL_ROUTES.customer.path(c.id), CustomerEventData, customer);
    await t.sql.query(
      `INSERT INTO customer_snapshots (company_id, customer_id, name, status, currency_id, source_version)
       VALUES ($1, $2, $3, $4, $5, 1)
       ON CONFLICT (company_id, customer_id) DO UPDATE SET name = EXCLUDED.name, status = EXCLUDED.status, currency_id = EXCLUDED.currency_id`,
      [companyId, c.id, customer.name, customer.status, customer.currencyId],
    );
  }
}

export interface BulkOrderOptions {
  type?: string;
  customerId?: string;
  customerName?: string;
  customerOrder?: (i: number) => string | null;
  status?: (i: number) => string;
  linesPerOrder?: number;
  /** created_at of order i (1-based) = start + i seconds; last_modified_at = created + modifiedOffsetSeconds(i). */
  start?: string;
  modifiedOffsetSeconds?: (i: number) => number;
}

/**
 * Inserts `count` orders (and `linesPerOrder` lines each, totals computed) straight into the tables,
 * numbered after the company's counter, for paging, filter and load tests. Returns their order ids.
 */
export async function insertOrders(
  sql: Client,
  companyId: string,
  count: number,
  options: BulkOrderOptions = {},
): Promise<string[]> {
  const type = options.type ?? 'SO';
  const linesPerOrder = options.linesPerOrder ?? 0;
  const start = options.start ?? '2026-01-01T00:00:00Z';
  const rows = Array.from({ length: count }, (_, k) => {
    const i = k + 1;
    return {
      i,
      status: options.status?.(i) ?? 'Open',
      customer_order: options.customerOrder?.(i) ?? null,
      modified_offset: options.modifiedOffsetSeconds?.(i) ?? 0,
    };
  });
  const counter = await sql.query<{ first: string }>(
    `INSERT INTO sales_order_counters AS c (company_id, order_type, last_value) VALUES ($1, $2, $3)
     ON CONFLICT (company_id, order_type) DO UPDATE SET last_value = c.last_value + $3
     RETURNING (last_value - $3)::text AS first`,
    [companyId, type, count],
  );
  const first = Number(counter.rows[0].first);
  const inserted = await sql.query<{ internal_id: string; order_id: string }>(
    `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, request_on, currency_id, customer_id,
       customer_name, customer_order, billing, shipping, payment_settings, attachments, last_line_id, created_at, last_modified_at, grand_total)
     SELECT $1, $2, lpad(($3::int + r.i)::text, 6, '0'), r.status, date_trunc('day', $4::timestamptz), date_trunc('day', $4::timestamptz),
       'NOK', $5, $6, r.customer_order, '{"address": null, "contact": null}', '{"address": null, "contact": null}',
       '{"terms": null, "method": null}', '[]', $7, $4::timestamptz + r.i * interval '1 second',
       $4::timestamptz + r.i * interval '1 second' + r.modified_offset * interval '1 second', 0
     FROM jsonb_to_recordset($8::jsonb) AS r(i int, status text, customer_order text, modified_offset int)
     ORDER BY r.i
     RETURNING internal_id::text, order_id`,
    [
      companyId,
      type,
      first,
      start,
      options.customerId ?? '10001',
      options.customerName ?? 'Acme AS',
      linesPerOrder,
      JSON.stringify(rows),
    ],
  );
  if (linesPerOrder > 0) {
    const ids = inserted.rows.map((r) => r.internal_id);
    await sql.query(
      `INSERT INTO sales_order_lines (company_id, order_internal_id, line_id, sort_order, inventory_id, description, quantity,
         unit_price, discount_percent, extended_price, unit_of_measure, warehouse_id)
       SELECT $1, o.id, g, g, 'ITEM-' || lpad(g::text, 4, '0'), 'Article number ' || g || ' of a large order',
         (1 + g % 7)::numeric, (9.95 + g % 13)::numeric, (g % 3 * 5)::numeric,
         round((1 + g % 7)::numeric * (9.95 + g % 13)::numeric * (1 - (g % 3 * 5)::numeric / 100), 2), 'PCS', 'MAIN'
       FROM unnest($2::bigint[]) AS o(id), generate_series(1, $3::int) AS g`,
      [companyId, ids, linesPerOrder],
    );
    await sql.query(
      `UPDATE sales_orders AS o SET line_total = t.lt, order_total = t.ot, grand_total = t.ot, discount_total = t.lt - t.ot, order_qty = t.q
       FROM (SELECT order_internal_id, sum(round(quantity * unit_price, 2)) AS lt, sum(extended_price) AS ot, sum(quantity) AS q
             FROM sales_order_lines WHERE company_id = $1 AND order_internal_id = ANY($2::bigint[]) GROUP BY order_internal_id) AS t
       WHERE o.company_id = $1 AND o.internal_id = t.order_internal_id`,
      [companyId, ids],
    );
  }
  return inserted.rows.map((r) => r.order_id);
}

/** Every row of an order and its lines, as stored: for "nothing changed" assertions. */
export async function orderRows(
  sql: Client,
  companyId: string,
  type: string,
  orderId: string,
): Promise<{ header: unknown; lines: unknown[] }> {
  const header = await sql.query(
    `SELECT * FROM sales_orders WHERE company_id = $1 AND order_type = $2 AND order_id = $3`,
    [companyId, type, orderId],
  );
  const lines = await sql.query(
    `SELECT l.* FROM sales_order_lines l JOIN sales_orders o ON o.company_id = l.company_id AND o.internal_id = l.order_internal_id
     WHERE o.company_id = $1 AND o.order_type = $2 AND o.order_id = $3 ORDER BY l.line_id`,
    [companyId, type, orderId],
  );
  return { header: header.rows[0], lines: lines.rows };
}

export async function outboxRows(
  sql: Client,
): Promise<
  Array<{ event_type: string; message_key: string; topic: string; payload: Record<string, unknown> }>
> {
  return (await sql.query(`SELECT event_type, message_key, topic, payload FROM outbox ORDER BY sequence`))
    .rows;
}

/**
 * The ETag a body's `version` stands for: `version` is the ETag's value in base64 (the v3
 * document's `format: byte`). Throws on a `version` that is not base64.
 */
export function etagOfVersion(version: string): string {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(version)) throw new Error(`version ${version} is not base64`);
  return `"${Buffer.from(version, 'base64').toString('utf8')}"`;
}

/**
 * Creates inventory items (bare: no description, no stock) through the real interface,
 * `PUT /api/v3/Inventory/{inventoryId}`, a few requests at a time: order lines may only name
 * items that exist. Items that exist already are replaced by the same bare item.
 */
export async function putInventoryItems(t: SalesOrdersTestApp, company: string, inventoryIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(inventoryIds)];
  const headers = await t.headers(company);
  for (let i = 0; i < ids.length; i += 16) {
    await Promise.all(
      ids.slice(i, i + 16).map(async (id) => {
        const response = await t.http.request(`/api/v3/Inventory/${encodeURIComponent(id)}`, { method: 'PUT', headers, body: '{}' });
        if (response.status !== 201 && response.status !== 200) throw new Error(`PUT inventory item ${id}: ${response.status} ${await response.text()}`);
      }),
    );
  }
}

/**
 * How long a describe's start and setup may take. The write specs create thousands of catalogue
 * items through the API first (3000 PUTs): 35-45 s alone on 2 cores, and past the tests' 60 s
 * when a full `npm test` ran the end-to-end suites beside them on a slow machine (2026-11-28).
 */
const SETUP_TIMEOUT_MS = 180_000;

/**
 * Starts a sales-orders-v3 for the calling describe (its own database) and runs `setup` on it before
 * the first test; closes it at the end, failing if any request answered 5xx. Returns the app, for
 * use in tests (the specs' kits build their calls on it).
 */
export function useSalesOrdersTestApp(name: string, setup?: (t: SalesOrdersTestApp) => Promise<void>): () => SalesOrdersTestApp {
  let t: SalesOrdersTestApp | undefined;
  const app = () => {
    if (!t) throw new Error(`the sales-orders test app ${name} is not started (call inside the describe, use in tests)`);
    return t;
  };
  beforeAll(async () => {
    t = await startSalesOrdersTestApp(name);
    await setup?.(t);
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    expect(app().http.serverErrors()).toEqual([]);
    await app().close();
  });
  return app;
}
