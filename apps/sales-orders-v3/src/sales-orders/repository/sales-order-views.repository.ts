import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ts } from '@erp/sales-orders-queries';
import { appliedDiscounts, categoryTaxable, discountAmount, linesOf, taxAmount } from './order-totals.sql';
import type { OrderKey } from './sales-orders.repository';

/**
 * The order's read views, each built as JSON by PostgreSQL from the order's view parts and its
 * lines, with `numeric` arithmetic throughout (amounts rounded half away from zero to cents, as the
 * lines' extended prices are). Computed when read, so they always follow the current lines.
 *
 * - Document discounts are taken on the order's total after line discounts (`order_total`, the sum
 *   of extended prices), each on that same base; the applied total (skipped ones left out) is at
 *   most the order total.
 * - A tax applies to the lines of its tax category: taxable = their extended prices less their
 *   share of the applied document discounts (rounded to cents), plus the freight when the freight
 *   is in that category; tax = taxable x rate (0 when exempt). The SQL is shared with the stored
 *   totals (order-totals.sql.ts), so the views and `totals` agree.
 * - Commission: percent of the extended prices of the commissionable lines.
 * - ROT/RUT distributed automatically: a line's deduction is ROT 30 % / RUT 50 % of its labour cost
 *   including VAT (extended price plus the VAT taxes of its category), split equally between the
 *   persons on that line, the cent left over going to the first of them.
 */
export const ORDER_VIEWS = ['commissions', 'discounts', 'tax', 'rotrut', 'shipment'] as const;
export type OrderView = (typeof ORDER_VIEWS)[number];

/** The deduction rates of the Swedish ROT (repairs) and RUT (household services) deductions. */
export const ROT_RUT_RATES = { ROT: '0.30', RUT: '0.50' } as const;

const LINES = linesOf('o');

const DISCOUNT_AMOUNT = (e: string): string => discountAmount(e, 'o.order_total');

/** The document discounts applied to the order: skipped ones left out, at most the order total. */
const APPLIED_DISCOUNTS = appliedDiscounts('o.discounts', 'o.order_total');

const flag = (e: string, name: string): string => `'${name}', (${e} ->> '${name}')::boolean`;

const COMMISSIONS = `CASE WHEN o.sales_person_id IS NULL THEN '[]'::json ELSE (
    SELECT json_build_array(json_build_object(
      'salesPersonId', o.sales_person_id,
      'percent', trim_scale(p.percent),
      'commissionableAmount', trim_scale(c.amount),
      'amount', trim_scale(round(c.amount * p.percent / 100, 2))))
    FROM (SELECT coalesce(o.commission_percent, 0) AS percent) AS p,
         (SELECT coalesce(sum(l.extended_price) FILTER (WHERE l.commissionable), 0) AS amount FROM ${LINES}) AS c) END`;

const DISCOUNTS = `(SELECT coalesce(json_agg(json_build_object(
      'discountId', d.e ->> 'discountId',
      'discountSequenceId', d.e ->> 'discountSequenceId',
      'type', 'Document'::text,
      'discountableAmount', trim_scale(o.order_total),
      'discountableQuantity', trim_scale(o.order_qty),
      'discountPercent', trim_scale((d.e ->> 'discountPercent')::numeric),
      'discountAmount', trim_scale(${DISCOUNT_AMOUNT('d.e')}),
      'freeItemQuantity', NULL::numeric,
      'isManual', true,
      'manualOrderIndex', d.i,
      ${flag('d.e', 'skipDiscount')}) ORDER BY d.i), '[]'::json)
    FROM jsonb_array_elements(o.discounts) WITH ORDINALITY AS d(e, i))`;

const TAX = `(SELECT coalesce(json_agg(json_build_object(
      'taxId', t.e ->> 'taxId',
      'taxType', t.e ->> 'taxType',
      'taxRate', trim_scale((t.e ->> 'taxRate')::numeric),
      'taxableAmount', trim_scale(x.taxable),
      'taxAmount', trim_scale(${taxAmount('t.e', 'x.taxable')}),
      ${flag('t.e', 'includeInTaxable')},
      ${flag('t.e', 'exemptTax')},
      ${flag('t.e', 'isPendingTax')},
      ${flag('t.e', 'isReverseTax')},
      ${flag('t.e', 'isStatisticalTax')}) ORDER BY t.i), '[]'::json)
    FROM jsonb_array_elements(o.taxes) WITH ORDINALITY AS t(e, i)
    CROSS JOIN LATERAL (SELECT ${categoryTaxable({ order: 'o', net: 'o.order_total', applied: 'dd.applied' }, "t.e ->> 'taxCategoryId'")} AS taxable) AS x)`;

/** The VAT percent of a line's tax category (the order's VAT taxes of that category, summed). */
const LINE_VAT = `(SELECT coalesce(sum((v ->> 'taxRate')::numeric), 0) FROM jsonb_array_elements(o.taxes) AS v
    WHERE v ->> 'taxType' = 'VAT' AND v ->> 'taxCategoryId' = l.tax_category_id AND NOT (v ->> 'exemptTax')::boolean)`;

const ROT_RUT_DISTRIBUTION = `(SELECT coalesce(json_agg(json_build_object(
      'lineId', x.line_id, 'personalId', x.personal_id, 'amount', trim_scale(x.amount), 'extra', x.extra) ORDER BY x.i), '[]'::json)
    FROM (SELECT y.i, y.line_id, y.personal_id, y.extra,
                 CASE WHEN NOT (o.rot_rut ->> 'distributedAutomatically')::boolean THEN y.given
                      WHEN y.k = 1 THEN y.deduction - trunc(y.deduction / y.n, 2) * (y.n - 1)
                      ELSE trunc(y.deduction / y.n, 2) END AS amount
          FROM (SELECT d.i, (d.e ->> 'lineId')::int AS line_id, d.e ->> 'personalId' AS personal_id, (d.e ->> 'extra')::boolean AS extra,
                       (d.e ->> 'amount')::numeric AS given,
                       coalesce(round(l.extended_price * (100 + ${LINE_VAT}) / 100
                         * CASE o.rot_rut ->> 'type' WHEN 'ROT' THEN ${ROT_RUT_RATES.ROT} ELSE ${ROT_RUT_RATES.RUT} END, 2), 0) AS deduction,
                       count(*) OVER w AS n, row_number() OVER (w ORDER BY d.i) AS k
                FROM jsonb_array_elements(o.rot_rut -> 'distribution') WITH ORDINALITY AS d(e, i)
                LEFT JOIN sales_order_lines l ON l.company_id = o.company_id AND l.order_internal_id = o.internal_id
                  AND l.line_id = (d.e ->> 'lineId')::int
                WINDOW w AS (PARTITION BY d.e ->> 'lineId')) AS y) AS x)`;

const ROT_RUT = `CASE WHEN o.rot_rut IS NULL
    THEN json_build_object('type', NULL::text, 'distributedAutomatically', false, 'appartment', NULL::text, 'estate', NULL::text,
                           'organizationNumber', NULL::text, 'distribution', '[]'::json)
    ELSE json_build_object('type', o.rot_rut ->> 'type', ${flag('o.rot_rut', 'distributedAutomatically')},
                           'appartment', o.rot_rut ->> 'appartment', 'estate', o.rot_rut ->> 'estate',
                           'organizationNumber', o.rot_rut ->> 'organizationNumber', 'distribution', ${ROT_RUT_DISTRIBUTION}) END`;

const SHIPMENT = `(SELECT coalesce(json_agg(json_build_object(
      'id', s.e ->> 'id',
      'date', ${ts(`(s.e ->> 'date')::timestamptz`)},
      'type', s.e ->> 'type',
      'quantity', trim_scale((s.e ->> 'quantity')::numeric),
      'weight', trim_scale((s.e ->> 'weight')::numeric),
      'volume', trim_scale((s.e ->> 'volume')::numeric),
      'inventoryDocumentType', s.e ->> 'inventoryDocumentType',
      'inventoryReferenceId', s.e ->> 'inventoryReferenceId',
      'invoiceType', s.e ->> 'invoiceType',
      'invoiceId', s.e ->> 'invoiceId') ORDER BY (s.e ->> 'date')::timestamptz, s.i), '[]'::json)
    FROM jsonb_array_elements(o.shipments) WITH ORDINALITY AS s(e, i))`;

const VIEW_JSON: Record<OrderView, string> = {
  commissions: COMMISSIONS,
  discounts: DISCOUNTS,
  tax: TAX,
  rotrut: ROT_RUT,
  shipment: SHIPMENT,
};

/** Reads of the order's views; every statement scoped by company. */
@Injectable()
export class SalesOrderViewsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The view's JSON text, or undefined when the order does not exist (for this company). */
  async findJson(key: OrderKey, view: OrderView): Promise<string | undefined> {
    const rows = await this.db.query<Array<{ json: string }>>(
      `SELECT (${VIEW_JSON[view]})::text AS json
       FROM sales_orders o CROSS JOIN LATERAL (SELECT ${APPLIED_DISCOUNTS} AS applied) AS dd
       WHERE o.company_id = $1 AND o.order_type = $2 AND o.order_id = $3`,
      [key.companyId, key.type, key.orderId],
    );
    return rows[0]?.json;
  }
}
