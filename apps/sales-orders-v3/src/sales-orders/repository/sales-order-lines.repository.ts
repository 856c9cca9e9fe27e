import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';
import { NotFoundError } from '@erp/errors';
import { type V3PageRequest, v3NextPage } from '@erp/paging';
import {
  extendedPriceSql,
  lineByIdQuery,
  lineCountQuery,
  linePageQuery,
  type ListRequest,
  openPageStream,
  type PageSource,
  SMALL_BATCH_ROWS,
} from '@erp/sales-orders-queries';
import { type OrderKey, SalesOrdersRepository } from './sales-orders.repository';

/** The new value of a line column in the bulk UPDATE: the sent one, or the current one. */
function changed(column: string, cast: string): string {
  return `CASE WHEN u.doc ? '${column}' THEN (u.doc ->> '${column}')::${cast} ELSE l.${column} END`;
}

/** Persistence of order lines: set-based statements, one per kind of change, however many lines. */
@Injectable()
export class SalesOrderLinesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly orders: SalesOrdersRepository,
  ) {}

  /** One page of an order's lines, streamed; 404 (in the stream's first step) when the order does not exist. */
  async openPage(key: OrderKey, paging: V3PageRequest, request: ListRequest): Promise<Readable> {
    const connection = await this.orders.connection();
    return openPageStream(
      connection.client,
      async (run): Promise<PageSource> => {
        const found = await run<{ internal_id: string }>(
          `SELECT internal_id::text FROM sales_orders WHERE company_id = $1 AND order_type = $2 AND order_id = $3`,
          [key.companyId, key.type, key.orderId],
        );
        if (found.length === 0) throw new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
        const count = lineCountQuery(key.companyId, found[0].internal_id);
        const [{ total }] = await run<{ total: number }>(count.text, count.values);
        return {
          total,
          page: linePageQuery(key.companyId, found[0].internal_id, paging.pageSize, paging.offset),
          nextPage: v3NextPage(request.path, request.rawQuery, paging, total),
        };
      },
      SMALL_BATCH_ROWS,
      connection.release,
    );
  }

  /** One line's JSON, or undefined when the order does not have it. */
  async findJson(companyId: string, internalId: string, lineId: number): Promise<string | undefined> {
    const q = lineByIdQuery(companyId, internalId, lineId);
    const rows = await this.db.query<Array<{ json: string }>>(q.text, q.values);
    return rows[0]?.json;
  }

  /** Which of `lineIds` the order has. */
  async existingIds(tx: EntityManager, companyId: string, internalId: string, lineIds: number[]): Promise<Set<number>> {
    if (lineIds.length === 0) return new Set();
    const rows = await namedQuery<{ line_id: number }>(
      tx,
      `SELECT line_id FROM sales_order_lines WHERE company_id = :companyId AND order_internal_id = :internalId AND line_id = ANY(:lineIds::int[])`,
      { companyId, internalId, lineIds },
    );
    return new Set(rows.map((r) => r.line_id));
  }

  /** Which of `lineIds` the order (by its key) has, as the transaction sees it. */
  async existingIdsOfOrder(tx: EntityManager, key: OrderKey, lineIds: number[]): Promise<Set<number>> {
    if (lineIds.length === 0) return new Set();
    const rows = await namedQuery<{ line_id: number }>(
      tx,
      `SELECT l.line_id FROM sales_order_lines l JOIN sales_orders o ON o.company_id = l.company_id AND o.internal_id = l.order_internal_id
       WHERE o.company_id = :companyId AND o.order_type = :type AND o.order_id = :orderId AND l.line_id = ANY(:lineIds::int[])`,
      { ...key, lineIds },
    );
    return new Set(rows.map((r) => r.line_id));
  }

  async delete(tx: EntityManager, companyId: string, internalId: string, lineIds: number[]): Promise<void> {
    await namedQuery(
      tx,
      `DELETE FROM sales_order_lines WHERE company_id = :companyId AND order_internal_id = :internalId AND line_id = ANY(:lineIds::int[])`,
      { companyId, internalId, lineIds },
    );
  }

  /** The sort position new lines follow: the order's highest sort order, or 0. */
  async maxSortOrder(tx: EntityManager, companyId: string, internalId: string): Promise<number> {
    const [row] = await namedQuery<{ max: number }>(
      tx,
      `SELECT coalesce(max(sort_order), 0)::int AS max FROM sales_order_lines WHERE company_id = :companyId AND order_internal_id = :internalId`,
      { companyId, internalId },
    );
    return row.max;
  }

  /**
   * All new lines in one statement: ids follow `firstLineId`, sort order follows `sortBase` (records
   * from lineRecord). What a line leaves out (null) the catalogue item supplies, as the v3 document
   * has it: its description, its base unit as the unit of measure (when it fits the line's 6
   * characters) and its first warehouse; the line keeps the item's description (`inventory.description`).
   */
  async insert(tx: EntityManager, companyId: string, internalId: string, firstLineId: number, records: object[], sortBase = 0): Promise<void> {
    await namedQuery(
      tx,
      `INSERT INTO sales_order_lines (company_id, order_internal_id, line_id, sort_order, inventory_id, description, quantity,
         unit_price, discount_percent, extended_price, unit_of_measure, warehouse_id, request_date, note, tax_category_id, commissionable,
         has_manual_price, has_manual_discount, item_description)
       SELECT :companyId, :internalId, :firstLineId::int + x.n, coalesce(x.sort_order, :sortBase::int + x.n), x.inventory_id,
         coalesce(x.description, i.description), x.quantity, x.unit_price, x.discount_percent,
         ${extendedPriceSql('x.quantity', 'x.unit_price', 'x.discount_percent')},
         coalesce(x.unit_of_measure, CASE WHEN length(i.base_unit) <= 6 THEN i.base_unit END),
         coalesce(x.warehouse_id, i.availability -> 0 ->> 'warehouseId'), x.request_date, x.note, x.tax_category_id, x.commissionable,
         x.has_manual_price, x.has_manual_discount, i.description
       FROM jsonb_to_recordset(:records::jsonb) AS x(n int, inventory_id text, description text, quantity numeric(18,6),
         unit_price numeric(18,6), discount_percent numeric(7,4), unit_of_measure text, warehouse_id text,
         request_date timestamptz, note text, tax_category_id text, commissionable boolean, sort_order int,
         has_manual_price boolean, has_manual_discount boolean)
       LEFT JOIN inventory_items i ON i.company_id = :companyId AND i.inventory_id = x.inventory_id`,
      { companyId, internalId, firstLineId, sortBase, records: JSON.stringify(records) },
    );
  }

  /** All line updates in one statement (changes from lineChanges); the extended price is recomputed from the new values. */
  async update(tx: EntityManager, companyId: string, internalId: string, changes: object[]): Promise<void> {
    const quantity = changed('quantity', 'numeric(18,6)');
    const unitPrice = changed('unit_price', 'numeric(18,6)');
    const discount = changed('discount_percent', 'numeric(7,4)');
    await namedQuery(
      tx,
      `UPDATE sales_order_lines AS l SET
         inventory_id = ${changed('inventory_id', 'text')},
         description = ${changed('description', 'text')},
         quantity = ${quantity},
         unit_price = ${unitPrice},
         discount_percent = ${discount},
         extended_price = ${extendedPriceSql(quantity, unitPrice, discount)},
         unit_of_measure = ${changed('unit_of_measure', 'text')},
         warehouse_id = ${changed('warehouse_id', 'text')},
         request_date = ${changed('request_date', 'timestamptz')},
         note = ${changed('note', 'text')},
         tax_category_id = ${changed('tax_category_id', 'text')},
         commissionable = ${changed('commissionable', 'boolean')},
         sort_order = ${changed('sort_order', 'int')},
         has_manual_price = ${changed('has_manual_price', 'boolean')},
         has_manual_discount = ${changed('has_manual_discount', 'boolean')},
         item_description = CASE WHEN u.doc ? 'inventory_id'
           THEN (SELECT i.description FROM inventory_items i WHERE i.company_id = l.company_id AND i.inventory_id = u.doc ->> 'inventory_id')
           ELSE l.item_description END
       FROM (SELECT (e ->> 'line_id')::int AS line_id, e AS doc FROM jsonb_array_elements(:changes::jsonb) AS e) AS u
       WHERE l.company_id = :companyId AND l.order_internal_id = :internalId AND l.line_id = u.line_id`,
      { companyId, internalId, changes: JSON.stringify(changes) },
    );
  }
}
