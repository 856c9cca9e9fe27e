import { LINE_COLUMNS } from './order-json';
import type { SqlQuery } from './sales-orders.queries';

/** extended price = quantity * unit price * (1 - discount % / 100), rounded half away from zero to cents. */
export function extendedPriceSql(quantity: string, unitPrice: string, discountPercent: string): string {
  return `round(${quantity} * ${unitPrice} * (1 - ${discountPercent} / 100), 2)`;
}

/** One page of an order's lines; as for orders, the JSON is built only for the page's rows. */
export function linePageQuery(companyId: string, orderInternalId: string, pageSize: number, offset: number): SqlQuery {
  return {
    text: `SELECT row_to_json(x)::text AS json
           FROM (SELECT ${LINE_COLUMNS}
                 FROM (SELECT * FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2
                       ORDER BY l.sort_order, l.line_id LIMIT $3 OFFSET $4) AS l) AS x
           ORDER BY x."sortOrder", x."lineId"`,
    values: [companyId, orderInternalId, pageSize, offset],
  };
}

export function lineCountQuery(companyId: string, orderInternalId: string): SqlQuery {
  return {
    text: `SELECT count(*)::int AS total FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2`,
    values: [companyId, orderInternalId],
  };
}

export function lineByIdQuery(companyId: string, orderInternalId: string, lineId: number): SqlQuery {
  return {
    text: `SELECT row_to_json(x)::text AS json
           FROM (SELECT ${LINE_COLUMNS} FROM sales_order_lines l WHERE l.company_id = $1 AND l.order_internal_id = $2 AND l.line_id = $3) AS x`,
    values: [companyId, orderInternalId, lineId],
  };
}
