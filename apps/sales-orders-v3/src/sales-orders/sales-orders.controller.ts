import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { CompanyId } from '@erp/auth';
import { DETAIL_CODES, NotFoundError, ValidationFailedError } from '@erp/errors';
import { formatEtag, IfMatch, type IfMatchCondition } from '@erp/etag';
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

@Controller('api/v3/SalesOrders')
export class SalesOrdersController {
  constructor(private readonly orders: SalesOrdersService) {}

  /** Lists stream: see SalesOrdersService.streamPage. */
  @Get()
  async listAll(@CompanyId() companyId: string, @Query() query: QueryParams, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendStream(reply, await this.orders.list(companyId, undefined, query, listRequest(request)));
  }

  @Get(':type')
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
  async get(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const key = orderKey(type, orderId);
    refuseUnknownParameters(query, new Set(['expand']));
    const order = await this.orders.get(companyId, key.type, key.orderId, parseV3Expand(query.expand, EXPAND_PARTS));
    reply.type(JSON_TYPE).header('etag', formatEtag(order.version));
    return order.json;
  }

  /** The body is validated by the use case (not the global pipe) so that every problem, including those only the database can find, comes in one 400. */
  @Post()
  @HttpCode(201)
  async create(@CompanyId() companyId: string, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const order = await this.orders.create(companyId, body);
    reply.type(JSON_TYPE).header('etag', formatEtag(order.version)).header('location', orderLink(order.type, order.orderId));
    return order.json;
  }

  /** v3 rule: If-Match is required (428 without it). */
  @Patch(':type/:orderId')
  async patch(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @IfMatch({ required: true }) ifMatch: IfMatchCondition,
    @Body() body: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const key = orderKey(type, orderId);
    const order = await this.orders.patch(companyId, key.type, key.orderId, body, ifMatch);
    reply.type(JSON_TYPE).header('etag', formatEtag(order.version));
    return order.json;
  }

  @Delete(':type/:orderId')
  @HttpCode(204)
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
  async getLine(
    @CompanyId() companyId: string,
    @Param('type') type: string,
    @Param('orderId') orderId: string,
    @Param('lineId') lineId: string,
    @Query() query: QueryParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const key = orderKey(type, orderId);
    if (!LINE_ID_IN_PATH.test(lineId) || Number(lineId) > 2_147_483_647) {
      throw new NotFoundError(`Line ${lineId.slice(0, 12)} of sales order ${key.type} ${key.orderId}`);
    }
    refuseUnknownParameters(query, new Set());
    reply.type(JSON_TYPE);
    return this.orders.getLine(companyId, key.type, key.orderId, Number(lineId));
  }
}

function sendStream(reply: FastifyReply, body: Readable): void {
  void reply.status(200).type(JSON_TYPE).send(body);
}
