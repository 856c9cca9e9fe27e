import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { type OrderView, SalesOrderViewsRepository } from '../repository/sales-order-views.repository';
import type { OrderKey } from '../repository/sales-orders.repository';

/**
 * GET /api/v3/SalesOrders/{type}/{orderId}/{commissions | discounts | tax | rotrut | shipment}: one
 * read view of the order, computed from its view parts and lines (the five operations differ only
 * in the view, so they share this use case). 404 when the order does not exist for this company.
 */
@Injectable()
export class GetSalesOrderView {
  constructor(private readonly views: SalesOrderViewsRepository) {}

  async execute(key: OrderKey, view: OrderView): Promise<string> {
    const json = await this.views.findJson(key, view);
    if (json === undefined) throw new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
    return json;
  }
}
