import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import type { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';
import { writeTransaction } from '@erp/idempotency';
import {
  EXPAND_PARTS,
  type ExpandPart,
  type ListRequest,
  openOrderPage,
  ORDER_ID_WIDTH,
  orderByIdQuery,
  orderJson,
  type OrderType,
  type SalesOrderListQuery,
  ts,
} from '@erp/sales-orders-queries';
import { type HeaderChanges, headerAssignments } from './header-changes';
import type { ViewColumns } from './order-records';
import { ORDER_EVENT_DATA } from './order-event.sql';
import { ORDER_TOTALS_CTES } from './order-totals.sql';

/** An order's key as the API names it. */
export interface OrderKey {
  companyId: string;
  type: OrderType;
  orderId: string;
}

/** The header of a new order, SQL-ready (see order-records.ts); view columns not set take their defaults. */
export interface NewOrderHeader extends ViewColumns {
  status: string;
  orderDate: string | null;
  requestOn: string | null;
  cancelBy: string | null;
  description: string | null;
  note: string | null;
  currencyId: string | null;
  customerId: string;
  customerName: string;
  customerOrder: string | null;
  customerRefNo: string | null;
  billing: object;
  shipping: object;
  paymentSettings: object;
  lineCount: number;
}

/** An order as a write's response and its event show it, read in the write's transaction. */
export interface WrittenOrder {
  json: string;
  version: string;
  type: string;
  orderId: string;
  customerId: string;
  status: string;
  time: string;
  /** What its event adds to the webhook payload: currency, totals and priced lines (ORDER_EVENT_DATA), as JSON text. */
  eventData: string;
}

const ALL_PARTS: ReadonlySet<ExpandPart> = new Set(EXPAND_PARTS);
// Stored to the millisecond: what the API shows is exactly what `modifiedSince` compares against.
export const NOW_MS = `date_trunc('milliseconds', now())`;
const TODAY_UTC = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
const BY_KEY = 'o.company_id = :companyId AND o.order_type = :type AND o.order_id = :orderId';
// `:versions` NULL is If-Match: * (any version); otherwise the versions the client may hold.
const IF_MATCH = '(:versions::bigint[] IS NULL OR o.version = ANY(:versions::bigint[]))';
// What a write answers and announces (WrittenOrder), selected from a sales_orders row `o`. Built
// once: the order's JSON expression is several KB of SQL, the same for every write.
const WRITTEN_COLUMNS = `${orderJson(ALL_PARTS)} AS json, o.version::text AS version, o.order_type, o.order_id, o.customer_id,
       o.status, ${ts('o.last_modified_at')} AS time, ${ORDER_EVENT_DATA} AS event_data`;

interface WrittenRow {
  json: string;
  version: string;
  order_type: string;
  order_id: string;
  customer_id: string;
  status: string;
  time: string;
  event_data: string;
}

function writtenOrder(row: WrittenRow): WrittenOrder {
  return {
    json: row.json,
    version: row.version,
    type: row.order_type,
    orderId: row.order_id,
    customerId: row.customer_id,
    status: row.status,
    time: row.time,
    eventData: row.event_data,
  };
}

/**
 * Persistence of order headers: every statement scoped by company, no rules. The JSON the API
 * returns is built in SQL (@erp/sales-orders-queries) so a read never round-trips through objects.
 */
@Injectable()
export class SalesOrdersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    // A keyed request's first write commits with its stored answer (@erp/idempotency).
    return writeTransaction(this.db, work);
  }

  /** One page of the order list, streamed (see openPageStream in @erp/sales-orders-queries for why). */
  async openList(companyId: string, query: SalesOrderListQuery, request: ListRequest): Promise<Readable> {
    const connection = await this.connection();
    return openOrderPage(connection.client, companyId, query, request, connection.release);
  }

  async findJson(key: OrderKey, parts: ReadonlySet<ExpandPart>): Promise<{ json: string; version: string } | undefined> {
    const q = orderByIdQuery(key.companyId, key.type, key.orderId, parts);
    const rows = await this.db.query<Array<{ json: string; version: string }>>(q.text, q.values);
    return rows[0];
  }

  /** The order's internal id and current version, or undefined when it does not exist (for this company). */
  async findState(key: OrderKey, manager: EntityManager = this.db.manager): Promise<{ internalId: string; version: string } | undefined> {
    const rows = await namedQuery<{ internal_id: string; version: string }>(
      manager,
      `SELECT o.internal_id::text, o.version::text FROM sales_orders o WHERE ${BY_KEY}`,
      key,
    );
    return rows[0] && { internalId: rows[0].internal_id, version: rows[0].version };
  }

  /** The company's next number for the type (`000001`, `000002`, ...), in the order's transaction. */
  async nextOrderId(tx: EntityManager, companyId: string, type: OrderType): Promise<string> {
    const [row] = await namedQuery<{ last_value: string }>(
      tx,
      `INSERT INTO sales_order_counters AS c (company_id, order_type, last_value) VALUES (:companyId, :type, 1)
       ON CONFLICT (company_id, order_type) DO UPDATE SET last_value = c.last_value + 1
       RETURNING last_value::text`,
      { companyId, type },
    );
    return row.last_value.padStart(ORDER_ID_WIDTH, '0');
  }

  /**
   * Inserts the header; dates left null are today (UTC midnight). Returns the internal id. The
   * totals start at 0 (`grand_total` may not be null: 1766960000000); the order's transaction
   * computes them from its lines before it commits.
   */
  async insert(tx: EntityManager, key: OrderKey, header: NewOrderHeader): Promise<string> {
    const [row] = await namedQuery<{ internal_id: string }>(
      tx,
      `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, request_on, cancel_by, description,
         note, currency_id, customer_id, customer_name, customer_order, customer_ref_no, billing, shipping, payment_settings,
         attachments, last_line_id, created_at, last_modified_at, sales_person_id, commission_percent, discounts, taxes, rot_rut,
         shipments, freight_cost, freight_premium, freight_tax_category_id, grand_total)
       VALUES (:companyId, :type, :orderId, :status, coalesce(:orderDate::timestamptz, ${TODAY_UTC}),
         coalesce(:requestOn::timestamptz, ${TODAY_UTC}), :cancelBy::timestamptz, :description, :note, :currencyId,
         :customerId, :customerName, :customerOrder, :customerRefNo, :billing::jsonb, :shipping::jsonb,
         :paymentSettings::jsonb, '[]'::jsonb, :lineCount, ${NOW_MS}, ${NOW_MS}, nullif(:salesPersonId, ''),
         :commissionPercent::numeric, coalesce(:discounts::jsonb, '[]'), coalesce(:taxes::jsonb, '[]'), :rotRut::jsonb,
         coalesce(:shipments::jsonb, '[]'), coalesce(:freightCost::numeric, 0), coalesce(:freightPremium::numeric, 0),
         nullif(:freightTaxCategoryId, ''), 0)
       RETURNING internal_id::text`,
      {
        ...key,
        salesPersonId: null,
        commissionPercent: null,
        discounts: null,
        taxes: null,
        rotRut: null,
        shipments: null,
        freightCost: null,
        freightPremium: null,
        freightTaxCategoryId: null,
        ...header,
        billing: JSON.stringify(header.billing),
        shipping: JSON.stringify(header.shipping),
        paymentSettings: JSON.stringify(header.paymentSettings),
      },
    );
    return row.internal_id;
  }

  /**
   * The conditional header UPDATE behind PATCH: it applies only when the stored version is one of
   * `versions` (null: any), evaluated by the database on the latest row version under its lock.
   * Undefined when nothing matched (missing or stale). Draws the new version.
   */
  async updateIfMatch(
    tx: EntityManager,
    key: OrderKey,
    versions: string[] | null,
    changes: HeaderChanges,
  ): Promise<{ internalId: string; lastLineId: number } | undefined> {
    const update = conditionalHeaderUpdate(key, versions, changes);
    const rows = await namedQuery<{ internal_id: string; last_line_id: number }>(
      tx,
      `${update.sql} RETURNING o.internal_id::text, o.last_line_id`,
      update.parameters,
    );
    return rows[0] && { internalId: rows[0].internal_id, lastLineId: rows[0].last_line_id };
  }

  /**
   * The same conditional UPDATE for a PATCH that changes no line, answering the order as written
   * (as recomputeTotals does) from the updated row in the same statement: one round trip fewer while the
   * transaction holds its pooled connection. Undefined when nothing matched (missing or stale).
   */
  async updateIfMatchReturningOrder(tx: EntityManager, key: OrderKey, versions: string[] | null, changes: HeaderChanges): Promise<WrittenOrder | undefined> {
    const update = conditionalHeaderUpdate(key, versions, changes);
    const rows = await namedQuery<WrittenRow>(tx, `WITH o AS (${update.sql} RETURNING o.*) SELECT ${WRITTEN_COLUMNS} FROM o`, update.parameters);
    return rows[0] && writtenOrder(rows[0]);
  }

  /**
   * The conditional DELETE (its lines go with it). The row it returns carries a new version drawn
   * for the deletion, so the deletion's event sorts after every earlier event of the order.
   */
  async deleteIfMatch(tx: EntityManager, key: OrderKey, versions: string[] | null): Promise<Omit<WrittenOrder, 'json' | 'type' | 'orderId' | 'eventData'> | undefined> {
    const rows = await namedQuery<{ customer_id: string; status: string; version: string; time: string }>(
      tx,
      `DELETE FROM sales_orders AS o WHERE ${BY_KEY} AND ${IF_MATCH}
       RETURNING o.customer_id, o.status, nextval('sales_order_version_seq')::text AS version, ${ts(NOW_MS)} AS time`,
      { ...key, versions },
    );
    return rows[0] && { customerId: rows[0].customer_id, status: rows[0].status, version: rows[0].version, time: rows[0].time };
  }

  /**
   * The header totals from the lines and the order's parts, exactly (numeric; order-totals.sql.ts):
   * line and discount totals, the applied document discounts, the tax totals, the order total and
   * the base currency's rate in force on the order date. Kept on the header so lists never
   * aggregate lines. The last write of a change, so it answers the order as written (WRITTEN_COLUMNS)
   * in the same statement; undefined when the order needs an exchange rate that is missing (the
   * caller refuses the write, see missingRate).
   */
  async recomputeTotals(tx: EntityManager, companyId: string, internalId: string): Promise<WrittenOrder | undefined> {
    const [row] = await namedQuery<WrittenRow>(
      tx,
      `WITH ${ORDER_TOTALS_CTES},
       o AS (
         UPDATE sales_orders AS o
         SET line_total = t.line_total, order_total = t.net, discount_total = t.line_total - t.net, order_qty = t.qty,
             document_discount_total = t.applied, tax_total = t.tax_total, taxable_total = t.taxable_total,
             tax_exempt_total = t.tax_exempt_total, grand_total = t.grand_total, base_currency_id = t.base_currency_id, exchange_rate = t.rate
         FROM totals AS t
         WHERE o.company_id = :companyId AND o.internal_id = :internalId AND t.rate IS NOT NULL
         RETURNING o.*)
       SELECT ${WRITTEN_COLUMNS} FROM o`,
      { companyId, internalId },
    );
    return row && writtenOrder(row);
  }

  /** Why recomputeTotals found no rate: the order's currency (never null then), the company's base currency and the order's day. */
  async missingRate(tx: EntityManager, companyId: string, internalId: string): Promise<{ currencyId: string; baseCurrencyId: string; day: string }> {
    const [row] = await namedQuery<{ currency_id: string; base_currency_id: string; day: string }>(
      tx,
      `SELECT o.currency_id, cc.base_currency_id, to_char(o.order_date AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
       FROM sales_orders o JOIN company_currencies cc ON cc.company_id = o.company_id
       WHERE o.company_id = :companyId AND o.internal_id = :internalId`,
      { companyId, internalId },
    );
    return { currencyId: row.currency_id, baseCurrencyId: row.base_currency_id, day: row.day };
  }

  /** A pooled connection of the service's DataSource for a streamed read, and how to give it back. */
  async connection(): Promise<{ client: PoolClient; release: () => void }> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    return { client, release: () => void runner.release() };
  }
}

/**
 * The conditional header UPDATE behind PATCH (see updateIfMatch), without its RETURNING: applies
 * only when the stored version is one of `versions`, draws the new version.
 */
function conditionalHeaderUpdate(key: OrderKey, versions: string[] | null, changes: HeaderChanges): { sql: string; parameters: Record<string, unknown> } {
  const { assignments, parameters } = headerAssignments(changes);
  return {
    sql: `UPDATE sales_orders AS o
       SET version = nextval('sales_order_version_seq'), last_modified_at = ${NOW_MS}${assignments.map((a) => `, ${a}`).join('')}
       WHERE ${BY_KEY} AND ${IF_MATCH}`,
    parameters: { ...parameters, ...key, versions },
  };
}
