import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import type { ExpandPart } from '@erp/sales-orders-queries';
import { type OrderKey, SalesOrdersRepository } from '../repository/sales-orders.repository';

/** GET /api/v3/SalesOrders/{type}/{orderId}: the order with the parts asked for, and its version. */
@Injectable()
export class GetSalesOrder {
  constructor(private readonly orders: SalesOrdersRepository) {}

  async execute(key: OrderKey, parts: ReadonlySet<ExpandPart>): Promise<{ json: string; version: string }> {
    const order = await this.orders.findJson(key, parts);
    if (!order) throw new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
    return order;
  }
}
