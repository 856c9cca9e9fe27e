import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PoolClient } from 'pg';
import type { Readable } from 'node:stream';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '@erp/database';
import { type FieldProblem, NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { ifMatchAllows, type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import { parseV3Paging, v3NextPage } from '@erp/paging';
import {
  EXPAND_PARTS,
  type ExpandPart,
  extendedPriceSql,
  LINE_LIST_PAGING,
  lineByIdQuery,
  lineCountQuery,
  linePageQuery,
  type ListRequest,
  openOrderPage,
  openPageStream,
  ORDER_ID_WIDTH,
  orderByIdQuery,
  orderJson,
  type OrderType,
  type PageSource,
  parseSalesOrderListQuery,
  refuseUnknownParameters,
  SMALL_BATCH_ROWS,
  ts,
} from '@erp/sales-orders-queries';
import { CustomerSnapshotsService } from '../customers/customer-snapshots.service';
import { SalesOrderEvents, type SalesOrderEventType } from '../events/sales-order-events';
import { validateBody } from './body-validation';
import { CreateSalesOrderDto } from './dto/create-sales-order.dto';
import type { AddressAndContactDto, CodeDescriptionDto, PaymentSettingsDto } from './dto/order-parts.dto';
import { PatchSalesOrderDto } from './dto/patch-sales-order.dto';
import {
  createRuleProblems,
  customerIdToCheck,
  customerProblems,
  instantOf,
  lineChanges,
  lineRecord,
  patchRuleProblems,
  referencedLineIds,
} from './sales-order-rules';

type Query = Record<string, string | string[] | undefined>;

/** An order as the API returns it: its JSON text and its version (the ETag value). */
export interface OrderRecord {
  type: string;
  orderId: string;
  json: string;
  version: string;
}

const ALL_PARTS: ReadonlySet<ExpandPart> = new Set(EXPAND_PARTS);
// Stored to the millisecond: what the API shows is exactly what `modifiedSince` compares against.
const NOW_MS = `date_trunc('milliseconds', now())`;
const TODAY_UTC = `(date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
const EMPTY_ADDRESS = { line1: null, line2: null, line3: null, postalCode: null, city: null, countryId: null, stateId: null };
const EMPTY_CONTACT = { name: null, attention: null, email: null, phone1: null };

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `billing`/`shipping` as stored: both parts always present, each a full object or null. */
function addressAndContact(dto: AddressAndContactDto | undefined): object {
  return {
    address: dto?.address ? { ...EMPTY_ADDRESS, ...definedOnly(dto.address) } : null,
    contact: dto?.contact ? { ...EMPTY_CONTACT, ...definedOnly(dto.contact) } : null,
  };
}

function codeDescription(dto: CodeDescriptionDto | null | undefined): object | null | undefined {
  if (dto === undefined || dto === null) return dto;
  return { id: dto.id, description: dto.description ?? null };
}

/** The sent parts of `paymentSettings` (absent keys are left as they are on PATCH). */
function paymentSettings(dto: PaymentSettingsDto | undefined): Record<string, unknown> {
  return definedOnly({ terms: codeDescription(dto?.terms), method: codeDescription(dto?.method) });
}

/** jsonb merge of a `billing`/`shipping` PATCH: each sent part is merged field by field into the stored one. */
function mergeAddressAndContact(column: string, placeholder: string): string {
  return `${column} = ${column} || (
      SELECT coalesce(jsonb_object_agg(e.key,
               coalesce(nullif(${column} -> e.key, 'null'::jsonb),
                        CASE e.key WHEN 'address' THEN '${JSON.stringify(EMPTY_ADDRESS)}'::jsonb
                                   ELSE '${JSON.stringify(EMPTY_CONTACT)}'::jsonb END) || e.value), '{}'::jsonb)
      FROM jsonb_each(${placeholder}::jsonb) AS e)`;
}

/** The new value of a line column in the bulk UPDATE: the sent one, or the current one. */
function changed(column: string, cast: string): string {
  return `CASE WHEN u.doc ? '${column}' THEN (u.doc ->> '${column}')::${cast} ELSE l.${column} END`;
}

@Injectable()
export class SalesOrdersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly customers: CustomerSnapshotsService,
    private readonly events: SalesOrderEvents,
  ) {}

  // ---------------------------------------------------------------- reads

  /** One page of the order list, streamed (see openPageStream in @erp/sales-orders-queries for why). */
  async list(companyId: string, type: OrderType | undefined, rawQuery: Query, request: ListRequest): Promise<Readable> {
    const query = parseSalesOrderListQuery(rawQuery, type);
    const connection = await this.connection();
    return openOrderPage(connection.client, companyId, query, request, connection.release);
  }

  async get(companyId: string, type: OrderType, orderId: string, parts: ReadonlySet<ExpandPart>): Promise<OrderRecord> {
    const q = orderByIdQuery(companyId, type, orderId, parts);
    const rows = await this.db.query<Array<{ json: string; version: string }>>(q.text, q.values);
    if (rows.length === 0) throw new NotFoundError(`Sales order ${type} ${orderId}`);
    return { type, orderId, json: rows[0].json, version: rows[0].version };
  }

  /** The lines sub-resource: paged like the list (default and maximum 1000), same envelope, streamed. */
  async listLines(companyId: string, type: OrderType, orderId: string, rawQuery: Query, request: ListRequest): Promise<Readable> {
    refuseUnknownParameters(rawQuery, new Set(['pageSize', 'pageIndex']));
    const paging = parseV3Paging(rawQuery, LINE_LIST_PAGING);
    const connection = await this.connection();
    return openPageStream(
      connection.client,
      async (run): Promise<PageSource> => {
        const found = await run<{ internal_id: string }>(
          `SELECT internal_id::text FROM sales_orders WHERE company_id = $1 AND order_type = $2 AND order_id = $3`,
          [companyId, type, orderId],
        );
        if (found.length === 0) throw new NotFoundError(`Sales order ${type} ${orderId}`);
        const count = lineCountQuery(companyId, found[0].internal_id);
        const [{ total }] = await run<{ total: number }>(count.text, count.values);
        return {
          total,
          page: linePageQuery(companyId, found[0].internal_id, paging.pageSize, paging.offset),
          nextPage: v3NextPage(request.path, request.rawQuery, paging, total),
        };
      },
      SMALL_BATCH_ROWS,
      connection.release,
    );
  }

  async getLine(companyId: string, type: OrderType, orderId: string, lineId: number): Promise<string> {
    const internalId = await this.internalIdOf(this.db.manager, companyId, type, orderId);
    const q = lineByIdQuery(companyId, internalId, lineId);
    const rows = await this.db.query<Array<{ json: string }>>(q.text, q.values);
    if (rows.length === 0) throw new NotFoundError(`Line ${lineId} of sales order ${type} ${orderId}`);
    return rows[0].json;
  }

  // ---------------------------------------------------------------- writes

  /**
   * POST: every problem of the body (shape, types, limits, order type, customer) in one 400;
   * otherwise the order, its lines, its totals and its SALESORDER_CREATED event in one transaction.
   */
  async create(companyId: string, body: unknown): Promise<OrderRecord> {
    const { dto, problems } = validateBody(CreateSalesOrderDto, body);
    problems.push(...createRuleProblems(dto));
    return this.db.transaction(async (tx) => {
      const customerId = customerIdToCheck(dto.customer);
      const customer = customerId ? await this.customers.find(tx, companyId, customerId) : undefined;
      if (customerId) problems.push(...customerProblems(customerId, customer));
      if (problems.length > 0 || !customer) throw new ValidationFailedError(problems.sort(byField));

      const type = dto.type as OrderType;
      const orderId = await this.nextOrderId(tx, companyId, type);
      const lines = dto.orderLines ?? [];
      const [{ internal_id: internalId }] = await tx.query<Array<{ internal_id: string }>>(
        `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, request_on, cancel_by, description,
           note, currency_id, customer_id, customer_name, customer_order, customer_ref_no, billing, shipping, payment_settings,
           attachments, last_line_id, created_at, last_modified_at)
         VALUES ($1, $2, $3, $4, coalesce($5::timestamptz, ${TODAY_UTC}), coalesce($6::timestamptz, ${TODAY_UTC}), $7::timestamptz,
           $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb, $17::jsonb, '[]'::jsonb, $18, ${NOW_MS}, ${NOW_MS})
         RETURNING internal_id::text`,
        [
          companyId,
          type,
          orderId,
          dto.status ?? 'Open',
          instantOf(dto.date),
          instantOf(dto.requestOn),
          instantOf(dto.cancelBy),
          dto.description ?? null,
          dto.note ?? null,
          dto.currencyId ?? customer.currencyId,
          customer.customerId,
          customer.name,
          dto.customer.order ?? null,
          dto.customer.refNo ?? null,
          JSON.stringify(addressAndContact(dto.billing)),
          JSON.stringify(addressAndContact(dto.shipping)),
          JSON.stringify({ terms: null, method: null, ...paymentSettings(dto.paymentSettings) }),
          lines.length,
        ],
      );
      if (lines.length > 0) {
        await this.insertLines(tx, companyId, internalId, 0, lines.map((line, i) => lineRecord(line, i + 1)));
        await this.recomputeTotals(tx, companyId, internalId);
      }
      return this.finish(tx, companyId, internalId, 'SALESORDER_CREATED');
    });
  }

  /**
   * PATCH, all or nothing. Order of answers (RFC 9110: preconditions before the content is
   * processed): 404 when the order does not exist (for this company), 412 when If-Match does not
   * match, then 400 listing every problem of the body; nothing is applied on any of them.
   *
   * The version check IS the write: one conditional UPDATE of the header (`version = ANY($n)`)
   * that the database evaluates on the latest row version while holding its lock. Concurrent
   * PATCHes with the same ETag queue on that lock; the first commits and the others then match
   * nothing (412). Line changes run in the same transaction only after that UPDATE succeeded, so
   * they apply to exactly the version the client read, and every line writer holds the header
   * lock first, so the line ids checked after it cannot change before the commit.
   */
  async patch(companyId: string, type: OrderType, orderId: string, body: unknown, ifMatch: IfMatchCondition): Promise<OrderRecord> {
    const { dto, problems } = validateBody(PatchSalesOrderDto, body);
    problems.push(...patchRuleProblems(dto));
    return this.db.transaction(async (tx) => {
      const customerId = customerIdToCheck(dto.customer);
      const customer = customerId ? await this.customers.find(tx, companyId, customerId) : undefined;
      if (customerId) problems.push(...customerProblems(customerId, customer));
      if (problems.length > 0) return this.rejectPatch(tx, companyId, type, orderId, ifMatch, dto, problems);

      const lines = dto.lines ?? [];
      const inserts = lines.filter((l) => l.operation === 'insert');
      const updates = lines.filter((l) => l.operation === 'update');
      const deletes = lines.filter((l) => l.operation === 'delete');

      const values: unknown[] = [companyId, type, orderId, versionsForUpdate(ifMatch)];
      const sets = [`version = nextval('sales_order_version_seq')`, `last_modified_at = ${NOW_MS}`];
      const set = (column: string, value: unknown, cast = '') => {
        values.push(value);
        sets.push(`${column} = $${values.length}${cast}`);
      };
      if (dto.description !== undefined) set('description', dto.description);
      if (dto.note !== undefined) set('note', dto.note);
      if (dto.currencyId !== undefined) set('currency_id', dto.currencyId);
      if (dto.status !== undefined) set('status', dto.status);
      if (dto.date !== undefined) set('order_date', instantOf(dto.date), '::timestamptz');
      if (dto.requestOn !== undefined) set('request_on', instantOf(dto.requestOn), '::timestamptz');
      if (dto.cancelBy !== undefined) set('cancel_by', instantOf(dto.cancelBy), '::timestamptz');
      if (customer) {
        set('customer_id', customer.customerId);
        set('customer_name', customer.name);
      }
      if (dto.customer?.order !== undefined) set('customer_order', dto.customer.order);
      if (dto.customer?.refNo !== undefined) set('customer_ref_no', dto.customer.refNo);
      for (const [field, column] of [['billing', 'billing'], ['shipping', 'shipping']] as const) {
        if (dto[field] === undefined) continue;
        values.push(JSON.stringify(dto[field]));
        sets.push(mergeAddressAndContact(column, `$${values.length}`));
      }
      if (dto.paymentSettings !== undefined) {
        values.push(JSON.stringify(paymentSettings(dto.paymentSettings)));
        sets.push(`payment_settings = payment_settings || $${values.length}::jsonb`);
      }
      if (inserts.length > 0) set('last_line_id', `${inserts.length}`, '::int + last_line_id');

      const updated = await queryRows<{ internal_id: string; last_line_id: number }>(
        tx,
        `UPDATE sales_orders AS o SET ${sets.join(', ')}
         WHERE o.company_id = $1 AND o.order_type = $2 AND o.order_id = $3
           AND ($4::bigint[] IS NULL OR o.version = ANY($4::bigint[]))
         RETURNING o.internal_id::text, o.last_line_id`,
        values,
      );
      if (updated.length === 0) throw await this.missingOrStale(tx, companyId, type, orderId);
      const { internal_id: internalId, last_line_id: lastLineId } = updated[0];

      const lineProblems = await this.unknownLineProblems(tx, companyId, internalId, dto);
      if (lineProblems.length > 0) throw new ValidationFailedError(lineProblems);

      if (deletes.length > 0) {
        await tx.query(`DELETE FROM sales_order_lines WHERE company_id = $1 AND order_internal_id = $2 AND line_id = ANY($3::int[])`, [
          companyId,
          internalId,
          deletes.map((l) => l.lineId),
        ]);
      }
      if (updates.length > 0) await this.updateLines(tx, companyId, internalId, updates.map(lineChanges));
      if (inserts.length > 0) {
        const firstLineId = lastLineId - inserts.length;
        const [{ max }] = await tx.query<Array<{ max: number }>>(
          `SELECT coalesce(max(sort_order), 0)::int AS max FROM sales_order_lines WHERE company_id = $1 AND order_internal_id = $2`,
          [companyId, internalId],
        );
        await this.insertLines(tx, companyId, internalId, firstLineId, inserts.map((line, i) => lineRecord(line, i + 1)), max);
      }
      if (lines.length > 0) await this.recomputeTotals(tx, companyId, internalId);
      return this.finish(tx, companyId, internalId, 'SALESORDER_UPDATED');
    });
  }

  /**
   * DELETE with If-Match: one conditional DELETE (its lines go with it). The event carries a new
   * version drawn for the deletion, so it sorts after every earlier event of the order.
   */
  async delete(companyId: string, type: OrderType, orderId: string, ifMatch: IfMatchCondition): Promise<void> {
    await this.db.transaction(async (tx) => {
      const rows = await queryRows<{ customer_id: string; status: string; version: string; time: string }>(
        tx,
        `DELETE FROM sales_orders AS o
         WHERE o.company_id = $1 AND o.order_type = $2 AND o.order_id = $3
           AND ($4::bigint[] IS NULL OR o.version = ANY($4::bigint[]))
         RETURNING o.customer_id, o.status, nextval('sales_order_version_seq')::text AS version, ${ts(NOW_MS)} AS time`,
        [companyId, type, orderId, versionsForUpdate(ifMatch)],
      );
      if (rows.length === 0) throw await this.missingOrStale(tx, companyId, type, orderId);
      const [row] = rows;
      await this.events.add(tx, 'SALESORDER_DELETED', {
        companyId,
        type,
        orderId,
        customerId: row.customer_id,
        status: row.status,
        version: row.version,
        time: row.time,
      });
    });
  }

  // ---------------------------------------------------------------- helpers

  /** A pooled connection of the service's DataSource for a streamed read, and how to give it back. */
  private async connection(): Promise<{ client: PoolClient; release: () => void }> {
    const runner = this.db.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    return { client, release: () => void runner.release() };
  }

  private async internalIdOf(manager: EntityManager, companyId: string, type: OrderType, orderId: string): Promise<string> {
    const rows = await manager.query<Array<{ internal_id: string }>>(
      `SELECT internal_id::text FROM sales_orders WHERE company_id = $1 AND order_type = $2 AND order_id = $3`,
      [companyId, type, orderId],
    );
    if (rows.length === 0) throw new NotFoundError(`Sales order ${type} ${orderId}`);
    return rows[0].internal_id;
  }

  /** After a conditional write matched nothing: 404 when the order is not there, else 412. */
  private async missingOrStale(tx: EntityManager, companyId: string, type: OrderType, orderId: string): Promise<Error> {
    const rows = await tx.query(`SELECT 1 FROM sales_orders WHERE company_id = $1 AND order_type = $2 AND order_id = $3`, [
      companyId,
      type,
      orderId,
    ]);
    return rows.length === 0 ? new NotFoundError(`Sales order ${type} ${orderId}`) : new PreconditionFailedError();
  }

  /**
   * A PATCH that is already known to be invalid writes nothing; it still answers 404 and 412
   * first, then adds the unknown line ids to the problems so the 400 lists everything.
   */
  private async rejectPatch(
    tx: EntityManager,
    companyId: string,
    type: OrderType,
    orderId: string,
    ifMatch: IfMatchCondition,
    dto: PatchSalesOrderDto,
    problems: FieldProblem[],
  ): Promise<never> {
    const rows = await tx.query<Array<{ internal_id: string; version: string }>>(
      `SELECT internal_id::text, version::text FROM sales_orders WHERE company_id = $1 AND order_type = $2 AND order_id = $3`,
      [companyId, type, orderId],
    );
    if (rows.length === 0) throw new NotFoundError(`Sales order ${type} ${orderId}`);
    if (!ifMatchAllows(ifMatch, rows[0].version)) throw new PreconditionFailedError();
    const lineProblems = await this.unknownLineProblems(tx, companyId, rows[0].internal_id, dto);
    throw new ValidationFailedError([...problems, ...lineProblems].sort(byField));
  }

  private async unknownLineProblems(tx: EntityManager, companyId: string, internalId: string, dto: PatchSalesOrderDto): Promise<FieldProblem[]> {
    const refs = referencedLineIds(dto);
    if (refs.length === 0) return [];
    const rows = await tx.query<Array<{ line_id: number }>>(
      `SELECT line_id FROM sales_order_lines WHERE company_id = $1 AND order_internal_id = $2 AND line_id = ANY($3::int[])`,
      [companyId, internalId, refs.map((r) => r.lineId)],
    );
    const existing = new Set(rows.map((r) => r.line_id));
    return refs
      .filter((r) => !existing.has(r.lineId))
      .map((r) => ({
        field: `lines[${r.index}].lineId`,
        message: `line ${r.lineId} does not exist on this order`,
        code: '0007-UnknownReference' as const,
      }));
  }

  /** The company's next number for the type (`000001`, `000002`, ...), in the order's transaction. */
  private async nextOrderId(tx: EntityManager, companyId: string, type: OrderType): Promise<string> {
    const rows = await tx.query<Array<{ last_value: string }>>(
      `INSERT INTO sales_order_counters AS c (company_id, order_type, last_value) VALUES ($1, $2, 1)
       ON CONFLICT (company_id, order_type) DO UPDATE SET last_value = c.last_value + 1
       RETURNING last_value::text`,
      [companyId, type],
    );
    return rows[0].last_value.padStart(ORDER_ID_WIDTH, '0');
  }

  /** All new lines in one statement, however many: ids follow `firstLineId`, sort order follows `sortBase`. */
  private async insertLines(
    tx: EntityManager,
    companyId: string,
    internalId: string,
    firstLineId: number,
    records: Array<Record<string, unknown>>,
    sortBase = 0,
  ): Promise<void> {
    await tx.query(
      `INSERT INTO sales_order_lines (company_id, order_internal_id, line_id, sort_order, inventory_id, description, quantity,
         unit_price, discount_percent, extended_price, unit_of_measure, warehouse_id, request_date, note)
       SELECT $1, $2, $3::int + x.n, coalesce(x.sort_order, $4::int + x.n), x.inventory_id, x.description, x.quantity,
         x.unit_price, x.discount_percent, ${extendedPriceSql('x.quantity', 'x.unit_price', 'x.discount_percent')},
         x.unit_of_measure, x.warehouse_id, x.request_date, x.note
       FROM jsonb_to_recordset($5::jsonb) AS x(n int, inventory_id text, description text, quantity numeric(18,6),
         unit_price numeric(18,6), discount_percent numeric(7,4), unit_of_measure text, warehouse_id text,
         request_date timestamptz, note text, sort_order int)`,
      [companyId, internalId, firstLineId, sortBase, JSON.stringify(records)],
    );
  }

  /** All line updates in one statement; the extended price is recomputed from the new values. */
  private async updateLines(tx: EntityManager, companyId: string, internalId: string, changes: Array<Record<string, unknown>>): Promise<void> {
    const quantity = changed('quantity', 'numeric(18,6)');
    const unitPrice = changed('unit_price', 'numeric(18,6)');
    const discount = changed('discount_percent', 'numeric(7,4)');
    await tx.query(
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
         sort_order = ${changed('sort_order', 'int')}
       FROM (SELECT (e ->> 'line_id')::int AS line_id, e AS doc FROM jsonb_array_elements($3::jsonb) AS e) AS u
       WHERE l.company_id = $1 AND l.order_internal_id = $2 AND l.line_id = u.line_id`,
      [companyId, internalId, JSON.stringify(changes)],
    );
  }

  /**
   * The header totals from the lines, exactly (numeric): lineTotal = sum of quantity x unitPrice
   * (each rounded to cents), orderTotal = sum of extended prices, discountTotal = the difference,
   * orderQty = sum of quantities. Kept on the header so lists never aggregate lines.
   */
  private async recomputeTotals(tx: EntityManager, companyId: string, internalId: string): Promise<void> {
    await tx.query(
      `UPDATE sales_orders AS o
       SET line_total = t.line_total, order_total = t.order_total, discount_total = t.line_total - t.order_total, order_qty = t.qty
       FROM (SELECT coalesce(sum(round(l.quantity * l.unit_price, 2)), 0) AS line_total,
                    coalesce(sum(l.extended_price), 0) AS order_total,
                    coalesce(sum(l.quantity), 0) AS qty
             FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2) AS t
       WHERE o.company_id = $1 AND o.internal_id = $2`,
      [companyId, internalId],
    );
  }

  /** Reads the order as the response shows it (every part) and adds its event, in the write's transaction. */
  private async finish(tx: EntityManager, companyId: string, internalId: string, eventType: SalesOrderEventType): Promise<OrderRecord> {
    const [row] = await tx.query<
      Array<{ json: string; version: string; order_type: string; order_id: string; customer_id: string; status: string; time: string }>
    >(
      `SELECT ${orderJson(ALL_PARTS)} AS json, o.version::text AS version, o.order_type, o.order_id, o.customer_id, o.status,
              ${ts('o.last_modified_at')} AS time
       FROM sales_orders o WHERE o.company_id = $1 AND o.internal_id = $2`,
      [companyId, internalId],
    );
    await this.events.add(tx, eventType, {
      companyId,
      type: row.order_type,
      orderId: row.order_id,
      customerId: row.customer_id,
      status: row.status,
      version: row.version,
      time: row.time,
    });
    return { type: row.order_type, orderId: row.order_id, json: row.json, version: row.version };
  }
}

function byField(a: FieldProblem, b: FieldProblem): number {
  return a.field.localeCompare(b.field, 'en', { numeric: true });
}
