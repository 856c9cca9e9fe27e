import { refuseUnknownParameters } from '@erp/errors';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { CompanyId } from '@erp/auth';
import { IfMatch, type IfMatchCondition, Versioned, versioned, type VersionedBody } from '@erp/etag';
import { ApiAuthenticated, ApiErrors, ApiExpand, ApiIfMatch, ApiJsonResponse, ETAG_HEADER, JSON_TYPE, LOCATION_HEADER, ref } from '@erp/openapi';
import { parseV3Expand } from '@erp/paging';
import { EXPAND_NOTHING, EXPAND_PARTS, orderLink } from '@erp/sales-orders-queries';
import { CreateSalesOrderDto } from './dto/create-sales-order.dto';
import { PatchSalesOrderDto } from './dto/patch-sales-order.dto';
import { listRequest, listType, orderKey } from './sales-order-paths';
import { ApiOrderListParameters, ORDER_EXPAND_VALUES, ORDER_ID_PARAM, type QueryParams, TYPE_PARAM } from './sales-orders.api';
import { CreateSalesOrder } from './use-cases/create-sales-order.use-case';
import { DeleteSalesOrder } from './use-cases/delete-sales-order.use-case';
import { GetSalesOrder } from './use-cases/get-sales-order.use-case';
import { ListSalesOrders } from './use-cases/list-sales-orders.use-case';
import { PatchSalesOrder } from './use-cases/patch-sales-order.use-case';

/** The orders themselves: lists, one order, create, change, delete. Lines: sales-order-lines.controller.ts; read views: sales-order-views.controller.ts. */
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
  ) {}

  // Handler names are the document's operationIds (`SalesOrders_getLine`): generated clients call
  // them by these names, so renaming a handler is a breaking change of the API.

  /** Lists stream (see openPageStream in @erp/sales-orders-queries): the handler returns the body as a Readable, which Fastify pipes. */
  @Get()
  @ApiOperation({ summary: 'List sales orders' })
  @ApiOrderListParameters()
  @Header('content-type', JSON_TYPE)
  listAll(@CompanyId() companyId: string, @Query() query: QueryParams, @Req() request: FastifyRequest): Promise<Readable> {
    return this.listOrders.execute(companyId, undefined, query, listRequest(request));
  }

  @Get(':type')
  @ApiOperation({ summary: 'List sales orders of one type', description: 'An unknown type is 400.' })
  @TYPE_PARAM
  @ApiOrderListParameters()
  @Header('content-type', JSON_TYPE)
  listOfType(@CompanyId() companyId: string, @Param('type') type: string, @Query() query: QueryParams, @Req() request: FastifyRequest): Promise<Readable> {
    return this.listOrders.execute(companyId, listType(type), query, listRequest(request));
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
}
