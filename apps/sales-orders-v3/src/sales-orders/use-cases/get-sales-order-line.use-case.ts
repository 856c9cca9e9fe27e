import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { SalesOrderLinesRepository } from '../repository/sales-order-lines.repository';
import { type OrderKey, SalesOrdersRepository } from '../repository/sales-orders.repository';

/** GET .../{orderId}/lines/{lineId}: 404 names the order when it is missing, else the line. */
@Injectable()
export class GetSalesOrderLine {
  constructor(
    private readonly orders: SalesOrdersRepository,
    private readonly lines: SalesOrderLinesRepository,
  ) {}

  async execute(key: OrderKey, lineId: number): Promise<string> {
    const order = await this.orders.findState(key);
    if (!order) throw new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
    const json = await this.lines.findJson(key.companyId, order.internalId, lineId);
    if (json === undefined) throw new NotFoundError(`Line ${lineId} of sales order ${key.type} ${key.orderId}`);
    return json;
  }
}
