import { applyDecorators, Header } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApiErrors, ApiExpand, ApiFilter, ApiJsonResponse, ApiV3Paging, JSON_TYPE, ref } from '@erp/openapi';
import { EXPAND_NOTHING, EXPAND_PARTS, ORDER_STATUSES, ORDER_TYPE_CODES } from '@erp/sales-orders-queries';

/** The pieces the sales-orders controllers share: query parameters, path parameters, documented answers. */
export type QueryParams = Record<string, string | string[] | undefined>;

export const EXPAND_VALUES = [...EXPAND_PARTS, 'all'];
/** One order also takes the v3 document's `None` (its default); the lists' `expand` is this product's own. */
export const ORDER_EXPAND_VALUES = [...EXPAND_VALUES, ...EXPAND_NOTHING];
export const TYPE_PARAM = ApiParam({ name: 'type', description: 'Order type', schema: { type: 'string', enum: [...ORDER_TYPE_CODES] } });
export const ORDER_ID_PARAM = ApiParam({ name: 'orderId', description: 'Order id (numbered per company and type)', schema: { type: 'string', examples: ['000123'] } });

/** The list parameters of `GET /api/v3/SalesOrders[/{type}]`. */
export function ApiOrderListParameters(): MethodDecorator {
  const decorators = [
    ApiV3Paging(100, 1000, ', or 100 when anything is expanded'),
    ApiFilter('customerId', 'Customer id'),
    ApiFilter('status', 'Status', ORDER_STATUSES),
    ApiQuery({ name: 'modifiedSince', required: false, description: 'ISO 8601; UTC unless an offset is given; inclusive', schema: { type: 'string', format: 'date-time' } }),
    ApiFilter('filter', "Case-insensitive text matched against orderId, the customer's order number and the customer name"),
    ApiQuery({
      name: 'orderBy',
      required: false,
      description: '`created` (default), `lastModified` or `orderId`, optionally followed by `asc` or `desc`',
      schema: { type: 'string', examples: ['lastModified desc'] },
    }),
    ApiExpand(EXPAND_VALUES),
    ApiJsonResponse(200, 'A page: summary rows, or full orders with the expanded parts (streamed)', 'SalesOrderList'),
  ];
  return (target, key, descriptor) => {
    for (const decorator of decorators) decorator(target, key, descriptor);
  };
}

/** The path, answer and content type of a read view (`list`: an array of `schema`, as the v3 document has it). */
export function ApiOrderView(schema: string, list: boolean): MethodDecorator {
  return applyDecorators(
    TYPE_PARAM,
    ORDER_ID_PARAM,
    ApiJsonResponse(200, list ? `The ${schema} entries of the order` : `The ${schema} of the order`, list ? { type: 'array', items: ref(schema) } : schema),
    ApiErrors('problem', 404),
    Header('content-type', JSON_TYPE),
  );
}
