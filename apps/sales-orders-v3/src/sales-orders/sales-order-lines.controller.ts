import { refuseUnknownParameters } from '@erp/errors';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { CompanyId } from '@erp/auth';
import { IfMatch, type IfMatchCondition, Versioned, versioned, type VersionedBody } from '@erp/etag';
import { ApiAuthenticated, ApiErrors, ApiIfMatch, ApiJsonResponse, ApiV3Paging, ETAG_HEADER, JSON_TYPE, ref } from '@erp/openapi';
import { orderLink } from '@erp/sales-orders-queries';
import { AddSalesOrderLinesDto, PatchSalesOrderLinesDto } from './dto/sales-order-lines.dto';
import { MAX_DELETE_LINE_IDS } from './rules/line-operation-rules';
import { lineIdOf, listRequest, orderKey } from './sales-order-paths';
import { ORDER_ID_PARAM, type QueryParams, TYPE_PARAM } from './sales-orders.api';
import { AddSalesOrderLines } from './use-cases/add-sales-order-lines.use-case';
import { DeleteSalesOrderLines } from './use-cases/delete-sales-order-lines.use-case';
import { GetSalesOrderLine } from './use-cases/get-sales-order-line.use-case';
import { ListSalesOrderLines } from './use-cases/list-sales-order-lines.use-case';
import { PatchSalesOrderLines } from './use-cases/patch-sales-order-lines.use-case';

/** An order's lines: list, one line, add, change, delete (handler names are the document's operationIds). */
@Controller('api/v3/SalesOrders')
@ApiTags('Sales orders')
@ApiAuthenticated('problem')
// operationIds stay `SalesOrders_<handler>`, as when these handlers were SalesOrdersController's:
// generated clients call them by those names.
export class SalesOrderLinesController {
  constructor(
    private readonly listOrderLines: ListSalesOrderLines,
    private readonly getOrderLine: GetSalesOrderLine,
    private readonly addOrderLines: AddSalesOrderLines,
    private readonly patchOrderLines: PatchSalesOrderLines,
    private readonly deleteOrderLines: DeleteSalesOrderLines,
  ) {}

  @Get(':type/:orderId/lines')
  @ApiOperation({ operationId: 'SalesOrders_listLines', summary: 'List the lines of a sales order' })
  @TYPE_PARAM
  @ORDER_ID_PARAM
  @ApiV3Paging(1000, 1000)
  @ApiJsonResponse(200, 'A page of lines (streamed)', 'SalesOrderLineList')
  @ApiErrors('problem', 404)
  @Header('content-type', JSON_TYPE)
  listLines(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @Query() query: QueryParams,
    @Req() request: FastifyRequest,
  ): Promise<Readable> {
    return this.listOrderLines.execute(orderKey(companyId, type, orderId), query, listRequest(request));
  }

  // The line operations answer as the v3 document declares (202, no body) plus the new ETag, which
  // the specification asks for so the next write needs no read first. Each is a PATCH of the lines.

  @Post(':type/:orderId/lines')
  @HttpCode(202)
  @ApiOperation({ operationId: 'SalesOrders_addLines', summary: 'Add lines to a sales order', description: 'All or nothing. 202 with no body, as the v3 document declares; `ETag` and `Location` (the order) added.' })
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
  @ApiOperation({ operationId: 'SalesOrders_patchLines',
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
  @ApiOperation({ operationId: 'SalesOrders_deleteLines', summary: 'Delete lines of a sales order', description: 'All or nothing. 202 with no body, as the v3 document declares; `ETag` added.' })
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
  @ApiOperation({ operationId: 'SalesOrders_getLine', summary: 'Get one line of a sales order' })
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
}
