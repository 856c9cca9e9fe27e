import { refuseUnknownParameters } from '@erp/errors';
import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { parseV3Paging } from '@erp/paging';
import { LINE_LIST_PAGING, type ListRequest } from '@erp/sales-orders-queries';
import { SalesOrderLinesRepository } from '../repository/sales-order-lines.repository';
import type { OrderKey } from '../repository/sales-orders.repository';

type Query = Record<string, string | string[] | undefined>;

/** GET .../{orderId}/lines: paged like the list (default and maximum 1000), same envelope, streamed. */
@Injectable()
export class ListSalesOrderLines {
  constructor(private readonly lines: SalesOrderLinesRepository) {}

  execute(key: OrderKey, query: Query, request: ListRequest): Promise<Readable> {
    refuseUnknownParameters(query, new Set(['pageSize', 'pageIndex']));
    return this.lines.openPage(key, parseV3Paging(query, LINE_LIST_PAGING), request);
  }
}
