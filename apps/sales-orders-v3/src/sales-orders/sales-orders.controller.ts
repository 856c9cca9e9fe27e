import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { CompanyId } from '@erp/auth';
import { PG_INTEGER_MAX } from '@erp/database';
import { DETAIL_CODES, NotFoundError, ValidationFailedError } from '@erp/errors';
import { IfMatch, type IfMatchCondition, Versioned, versioned, type VersionedBody } from '@erp/etag';
import { parseV3Expand } from '@erp/paging';
import {
  EXPAND_PARTS,
  isOrderType,
  type ListRequest,
  ORDER_TYPE_CODES,
  orderLink,
  type OrderType,
  refuseUnknownParameters,
} from '@erp/sales-orders-queries';
import { SalesOrdersService } from './sales-orders.service';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  ApiAuthenticated,
  ApiErrors,
  ApiExpand,
  ApiFilter,
  ApiIfMatch,
  ApiJsonResponse,
  ApiV3Paging,
  ETAG_HEADER,
  LOCATION_HEADER,
  ref,
} from '@erp/openapi';
import { ORDER_STATUSES } from '@erp/sales-orders-queries';

type QueryParams = Record<string, string | string[] | undefined>;

const JSON_TYPE = 'application/json; charset=utf-8';
const ORDER_ID_IN_PATH = /^[A-Za-z0-9._-]{1,15}$/;
const LINE_ID_IN_PATH = /^[1-9]\d{0,9}$/;

/** An order path that cannot exist (unknown type, impossible id) is simply not found; it never reaches SQL. */
function orderKey(type: string, orderId: string): { type: OrderType; orderId: string } {
  if (!isOrderType(type) || !ORDER_ID_IN_PATH.test(orderId)) {
    throw new NotFoundError(`Sales order ${type.slice(0, 10)} ${orderId.slice(0, 20)}`);
  }
  return { type, orderId };
}

/** Listing a type that does not exist is a client error, not an empty list. */
function listType(type: string): OrderType {
  if (!isOrderType(type)) {
    throw ValidationFailedError.of('type', `must be one of ${ORDER_TYPE_CODES.join(', ')}`, DETAIL_CODES.unknownReference);
  }
  return type;
}

function listRequest(request: FastifyRequest): ListRequest {
  const url = request.url;
  const q = url.indexOf('?');
  return { path: q < 0 ? url : url.slice(0, q), rawQuery: q < 0 ? '' : url.slice(q + 1) };
}

const EXPAND_VALUES = [...EXPAND_PARTS, 'all'];
const TYPE_PARAM = ApiParam({ name: 'type', description: 'Order type', schema: { type: 'string', enum: [...ORDER_TYPE_CODES] } });
const ORDER_ID_PARAM = ApiParam({ name: 'orderId', description: 'Order id (numbered per company and type)', schema: { type: 'string', examples: ['000123'] } });

/** The list parameters of `GET /api/v3/SalesOrders[/{type}]`. */
function ApiOrderListParameters(): MethodDecorator {
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

@Controller('api/v3/SalesOrders')
@ApiTags('Sales orders')
@ApiAuthenticated('problem')
export class SalesOrdersController {
  constructor(private readonly orders: SalesOrdersService) {}

  /** Lists stream: see SalesOrdersService.streamPage. */
  @Get()
  @ApiOperation({ summary: 'List sales orders' })
  @ApiOrderListParameters()
  async listAll(@CompanyId() companyId: string, @Query() query: QueryParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendStream(reply, await this.orders.list(companyId, undefined, query, listRequest(request)));
  }

  @Get(':type')
  @ApiOperation({ summary: 'List sales orders of one type', description: 'An unknown type is 400.' })
  @TYPE_PARAM
  @ApiOrderListParameters()
  async listOfType(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    sendStream(reply, await this.orders.list(companyId, listType(type), query, listRequest(request)));
  }

  @Get(':type/:orderId')
  @ApiOperation({ summary: 'Get a sales order' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiExpand(EXPAND_VALUES)
  @ApiJsonResponse(200, 'The order with the expanded parts', 'SalesOrder', ETAG_HEADER)
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async get(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @Query() query: QueryParams,
  ): Promise<VersionedBody<string>> {
    const key = orderKey(type, orderId);
    refuseUnknownParameters(query, new Set(['expand']));
    const order = await this.orders.get(companyId, key.type, key.orderId, parseV3Expand(query.expand, EXPAND_PARTS));
    return versioned(order.json, order.version);
  }

  /** The body is validated by the use case (not the global pipe) so that every problem, including those only the database can find, comes in one 400. */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a sales order', description: 'The order id comes from the company sequence for the type. An order may have thousands of lines.' })
  @ApiBody({ schema: ref('SalesOrderCreate') })
  @ApiJsonResponse(201, 'Created: the order with every part', 'SalesOrder', { ...ETAG_HEADER, ...LOCATION_HEADER })
  @ApiErrors('problem', 413, 415)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async create(@CompanyId() companyId: string, @Body() body: unknown): Promise<VersionedBody<string>> {
    const order = await this.orders.create(companyId, body);
    return versioned(order.json, order.version, { location: orderLink(order.type, order.orderId) });
  }

  /** v3 rule: If-Match is required (428 without it). */
  @Patch(':type/:orderId')
  @ApiOperation({
    summary: 'Change a sales order',
    description: 'Header fields and `lines: [{ operation: insert | update | delete, lineId?, ... }]` in one body, applied all or nothing.',
  })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiBody({ schema: ref('SalesOrderPatch') })
  @ApiJsonResponse(200, 'Changed: the updated order with every part', 'SalesOrder', ETAG_HEADER)
  @ApiErrors('problem', 404, 412, 413, 415, 428)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async patch(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
    @Body() body: unknown,
  ): Promise<VersionedBody<string>> {
    const key = orderKey(type, orderId);
    const order = await this.orders.patch(companyId, key.type, key.orderId, body, ifMatch);
    return versioned(order.json, order.version);
  }

  @Delete(':type/:orderId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a sales order', description: 'Its lines go with it.' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiErrors('problem', 404, 412, 428)
  async delete(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
  ): Promise<void> {
    const key = orderKey(type, orderId);
    await this.orders.delete(companyId, key.type, key.orderId, ifMatch);
  }

  @Get(':type/:orderId/lines')
  @ApiOperation({ summary: 'List the lines of a sales order' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiV3Paging(1000, 1000)
  @ApiJsonResponse(200, 'A page of lines (streamed)', 'SalesOrderLineList')
  @ApiErrors('problem', 404)
  async listLines(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const key = orderKey(type, orderId);
    sendStream(reply, await this.orders.listLines(companyId, key.type, key.orderId, query, listRequest(request)));
  }

  @Get(':type/:orderId/lines/:lineId')
  @ApiOperation({ summary: 'Get one line of a sales order' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiParam({ name: 'lineId', schema: { type: 'integer', minimum: 1 } })
  @ApiJsonResponse(200, 'The line', 'SalesOrderLine')
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  async getLine(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @Param('lineId') lineId: string,
    @Query() query: QueryParams,
  ): Promise<string> {
    const key = orderKey(type, orderId);
    if (!LINE_ID_IN_PATH.test(lineId) || Number(lineId) > PG_INTEGER_MAX) {
      throw new NotFoundError(`Line ${lineId.slice(0, 12)} of sales order ${key.type} ${key.orderId}`);
    }
    refuseUnknownParameters(query, new Set());
    return this.orders.getLine(companyId, key.type, key.orderId, Number(lineId));
  }
}

function sendStream(reply: FastifyReply, body: Readable): void {
  void reply.status(200).type(JSON_TYPE).send(body);
}
