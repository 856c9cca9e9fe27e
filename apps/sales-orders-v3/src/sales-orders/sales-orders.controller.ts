import { applyDecorators, Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { CompanyId } from '@erp/auth';
import { IfMatch, type IfMatchCondition, Versioned, versioned, type VersionedBody } from '@erp/etag';
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
import { parseV3Expand } from '@erp/paging';
import { EXPAND_NOTHING, EXPAND_PARTS, ORDER_STATUSES, ORDER_TYPE_CODES, orderLink, refuseUnknownParameters } from '@erp/sales-orders-queries';
import { CreateSalesOrderDto } from './dto/create-sales-order.dto';
import { PatchSalesOrderDto } from './dto/patch-sales-order.dto';
import { AddSalesOrderLinesDto, PatchSalesOrderLinesDto } from './dto/sales-order-lines.dto';
import type { OrderView } from './repository/sales-order-views.repository';
import { MAX_DELETE_LINE_IDS } from './rules/line-operation-rules';
import { lineIdOf, listRequest, listType, orderKey } from './sales-order-paths';
import { AddSalesOrderLines } from './use-cases/add-sales-order-lines.use-case';
import { CreateSalesOrder } from './use-cases/create-sales-order.use-case';
import { DeleteSalesOrder } from './use-cases/delete-sales-order.use-case';
import { DeleteSalesOrderLines } from './use-cases/delete-sales-order-lines.use-case';
import { GetSalesOrder } from './use-cases/get-sales-order.use-case';
import { GetSalesOrderLine } from './use-cases/get-sales-order-line.use-case';
import { GetSalesOrderView } from './use-cases/get-sales-order-view.use-case';
import { ListSalesOrderLines } from './use-cases/list-sales-order-lines.use-case';
import { ListSalesOrders } from './use-cases/list-sales-orders.use-case';
import { PatchSalesOrder } from './use-cases/patch-sales-order.use-case';
import { PatchSalesOrderLines } from './use-cases/patch-sales-order-lines.use-case';

type QueryParams = Record<string, string | string[] | undefined>;

const JSON_TYPE = 'application/json; charset=utf-8';

const EXPAND_VALUES = [...EXPAND_PARTS, 'all'];
/** One order also takes the v3 document's `None` (its default); the lists' `expand` is this product's own. */
const ORDER_EXPAND_VALUES = [...EXPAND_VALUES, ...EXPAND_NOTHING];
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
  constructor(
    private readonly listOrders: ListSalesOrders,
    private readonly getOrder: GetSalesOrder,
    private readonly createOrder: CreateSalesOrder,
    private readonly patchOrder: PatchSalesOrder,
    private readonly deleteOrder: DeleteSalesOrder,
    private readonly listOrderLines: ListSalesOrderLines,
    private readonly getOrderLine: GetSalesOrderLine,
    private readonly addOrderLines: AddSalesOrderLines,
    private readonly patchOrderLines: PatchSalesOrderLines,
    private readonly deleteOrderLines: DeleteSalesOrderLines,
    private readonly getOrderView: GetSalesOrderView,
  ) {}

  // Handler names are the document's operationIds (`SalesOrders_getLine`): generated clients call
  // them by these names, so renaming a handler is a breaking change of the API.

  /** Lists stream (see openPageStream in @erp/sales-orders-queries): the reply is written by the stream, not returned. */
  @Get()
  @ApiOperation({ summary: 'List sales orders' })
  @ApiOrderListParameters()
  async listAll(@CompanyId() companyId: string, @Query() query: QueryParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendStream(reply, await this.listOrders.execute(companyId, undefined, query, listRequest(request)));
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
    sendStream(reply, await this.listOrders.execute(companyId, listType(type), query, listRequest(request)));
  }

  @Get(':type/:orderId')
  @ApiOperation({ summary: 'Get a sales order' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiExpand(ORDER_EXPAND_VALUES)
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
    const key = orderKey(companyId, type, orderId);
    refuseUnknownParameters(query, new Set(['expand']));
    const order = await this.getOrder.execute(key, parseV3Expand(query.expand, EXPAND_PARTS, 'expand', EXPAND_NOTHING));
    return versioned(order.json, order.version);
  }

  /** The body's shape problems reach the use case with it (`@CollectBodyProblems`), so one 400 lists them with those only the database can find. */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a sales order', description: 'The order id comes from the company sequence for the type. An order may have thousands of lines.' })
  @ApiBody({ schema: ref('SalesOrderCreate') })
  @ApiJsonResponse(201, 'Created: the order with every part', 'SalesOrder', { ...ETAG_HEADER, ...LOCATION_HEADER })
  @ApiErrors('problem', 413, 415)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async create(@CompanyId() companyId: string, @Body() body: CreateSalesOrderDto): Promise<VersionedBody<string>> {
    const order = await this.createOrder.execute(companyId, body);
    return versioned(order.json, order.version, { location: orderLink(order.type, order.orderId) });
  }

  /** v3 rule: If-Match is required (428 without it). */
  @Patch(':type/:orderId')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Change a sales order',
    description: 'Header fields and `lines: [{ operation: insert | update | delete, lineId?, ... }]` in one body, applied all or nothing.',
  })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiBody({ schema: ref('SalesOrderPatch') })
  @ApiJsonResponse(202, 'Changed (202, as the v3 document declares): the updated order with every part', 'SalesOrder', ETAG_HEADER)
  @ApiErrors('problem', 404, 412, 413, 415, 428)
  @Header('content-type', JSON_TYPE)
  @Versioned()
  async patch(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
    @Body() body: PatchSalesOrderDto,
  ): Promise<VersionedBody<string>> {
    const order = await this.patchOrder.execute(orderKey(companyId, type, orderId), body, ifMatch);
    return versioned(order.json, order.version);
  }

  @Delete(':type/:orderId')
  @HttpCode(202)
  @ApiOperation({ summary: 'Delete a sales order', description: 'Its lines go with it. 202 with no body, as the v3 document declares.' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiResponse({ status: 202, description: 'Deleted' })
  @ApiErrors('problem', 404, 412, 428)
  async delete(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
  ): Promise<void> {
    await this.deleteOrder.execute(orderKey(companyId, type, orderId), ifMatch);
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
    sendStream(reply, await this.listOrderLines.execute(orderKey(companyId, type, orderId), query, listRequest(request)));
  }

  // The line operations answer as the v3 document declares (202, no body) plus the new ETag, which
  // the specification asks for so the next write needs no read first. Each is a PATCH of the lines.

  @Post(':type/:orderId/lines')
  @HttpCode(202)
  @ApiOperation({ summary: 'Add lines to a sales order', description: 'All or nothing. 202 with no body, as the v3 document declares; `ETag` and `Location` (the order) added.' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiBody({ schema: ref('SalesOrderLinesAdd') })
  @ApiResponse({ status: 202, description: 'Added', headers: { ...ETAG_HEADER, Location: { description: 'Path of the order (GET it to see the new lines)', schema: { type: 'string' } } } })
  @ApiErrors('problem', 404, 412, 413, 415, 428)
  @Versioned()
  async addLines(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
    @Body() body: AddSalesOrderLinesDto,
  ): Promise<VersionedBody<undefined>> {
    const order = await this.addOrderLines.execute(orderKey(companyId, type, orderId), body, ifMatch);
    return versioned(undefined, order.version, { location: orderLink(order.type, order.orderId) });
  }

  @Patch(':type/:orderId/lines')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Change lines of a sales order',
    description: 'Every entry updates the line its `lineId` names. All or nothing. 202 with no body, as the v3 document declares; `ETag` added.',
  })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiBody({ schema: ref('SalesOrderLinesPatch') })
  @ApiResponse({ status: 202, description: 'Changed', headers: ETAG_HEADER })
  @ApiErrors('problem', 404, 412, 413, 415, 428)
  @Versioned()
  async patchLines(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
    @Body() body: PatchSalesOrderLinesDto,
  ): Promise<VersionedBody<undefined>> {
    const order = await this.patchOrderLines.execute(orderKey(companyId, type, orderId), body, ifMatch);
    return versioned(undefined, order.version);
  }

  @Delete(':type/:orderId/lines')
  @HttpCode(202)
  @ApiOperation({ summary: 'Delete lines of a sales order', description: 'All or nothing. 202 with no body, as the v3 document declares; `ETag` added.' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiIfMatch(true)
  @ApiQuery({
    name: 'ids',
    required: true,
    description: `The line ids, comma-separated and/or repeated; at most ${MAX_DELETE_LINE_IDS}`,
    schema: { type: 'array', maxItems: MAX_DELETE_LINE_IDS, items: { type: 'integer', minimum: 1 } },
    style: 'form',
    explode: false,
  })
  @ApiResponse({ status: 202, description: 'Deleted', headers: ETAG_HEADER })
  @ApiErrors('problem', 404, 412, 428)
  @Versioned()
  async deleteLines(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
    @Query() query: QueryParams,
  ): Promise<VersionedBody<undefined>> {
    const key = orderKey(companyId, type, orderId);
    refuseUnknownParameters(query, new Set(['ids']));
    const order = await this.deleteOrderLines.execute(key, query.ids, ifMatch);
    return versioned(undefined, order.version);
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
    const key = orderKey(companyId, type, orderId);
    const id = lineIdOf(key, lineId);
    refuseUnknownParameters(query, new Set());
    return this.getOrderLine.execute(key, id);
  }

  // The read views, as the v3 document has them (a bare array, or for ROT/RUT one object); the
  // values are computed from the order's view parts and lines when read. No query parameters.

  @Get(':type/:orderId/commissions')
  @ApiOperation({ summary: 'Get the commission of a sales order', description: 'The salesperson\'s commission on the commissionable lines; `[]` without a salesperson.' })
  @ApiOrderView('SalesOrderCommission', true)
  getCommissions(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'commissions');
  }

  @Get(':type/:orderId/discounts')
  @ApiOperation({ summary: 'Get the document discounts of a sales order', description: 'Each discount with its base and the amount computed on the order\'s total after line discounts.' })
  @ApiOrderView('SalesOrderDiscount', true)
  getDiscounts(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'discounts');
  }

  @Get(':type/:orderId/rotrut')
  @ApiOperation({ summary: 'Get the ROT/RUT deduction of a sales order', description: 'One object; `type` null and no distribution when the order has none.' })
  @ApiOrderView('SalesOrderRotRut', false)
  getRotRut(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'rotrut');
  }

  @Get(':type/:orderId/shipment')
  @ApiOperation({ summary: 'Get the shipments of a sales order', description: 'In date order.' })
  @ApiOrderView('SalesOrderShipment', true)
  getShipment(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'shipment');
  }

  @Get(':type/:orderId/tax')
  @ApiOperation({ summary: 'Get the taxes of a sales order', description: 'One entry per tax: its taxable amount (the lines of its tax category less their share of document discounts) and tax.' })
  @ApiOrderView('SalesOrderTax', true)
  getTax(@CompanyId() companyId: string, @Param('type') type: string, @Param('orderId') orderId: string, @Query() query: QueryParams): Promise<string> {
    return this.view(companyId, type, orderId, query, 'tax');
  }

  private view(companyId: string, type: string, orderId: string, query: QueryParams, view: OrderView): Promise<string> {
    const key = orderKey(companyId, type, orderId);
    refuseUnknownParameters(query, new Set());
    return this.getOrderView.execute(key, view);
  }
}

/** The path, answer and content type of a read view (`list`: an array of `schema`, as the v3 document has it). */
function ApiOrderView(schema: string, list: boolean): MethodDecorator {
  return applyDecorators(
    TYPE_PARAM,
    ORDER_ID_PARAM,
    ApiJsonResponse(200, list ? `The ${schema} entries of the order` : `The ${schema} of the order`, list ? { type: 'array', items: ref(schema) } : schema),
    ApiErrors('problem', 404),
    Header('content-type', JSON_TYPE),
  );
}

function sendStream(reply: FastifyReply, body: Readable): void {
  void reply.status(200).type(JSON_TYPE).send(body);
}
