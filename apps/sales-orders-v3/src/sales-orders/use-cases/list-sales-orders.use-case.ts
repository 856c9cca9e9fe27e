import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { type ListRequest, type OrderType, parseSalesOrderListQuery } from '@erp/sales-orders-queries';
import { SalesOrdersRepository } from '../repository/sales-orders.repository';

type Query = Record<string, string | string[] | undefined>;

/** GET /api/v3/SalesOrders[/{type}]: one page, streamed; the query's every parameter is checked first. */
@Injectable()
export class ListSalesOrders {
  constructor(private readonly orders: SalesOrdersRepository) {}

  execute(companyId: string, type: OrderType | undefined, query: Query, request: ListRequest): Promise<Readable> {
    return this.orders.openList(companyId, parseSalesOrderListQuery(query, type), request);
  }
}
