import { Injectable } from '@nestjs/common';
import { type IfMatchCondition, versionsForUpdate } from '@erp/etag';
import { SalesOrderEvents } from '../../events/sales-order-events';
import { type OrderKey, SalesOrdersRepository } from '../repository/sales-orders.repository';
import { OrderChange } from './order-change';

/** DELETE with If-Match: one conditional DELETE (its lines go with it) and its SALESORDER_DELETED event. */
@Injectable()
export class DeleteSalesOrder {
  constructor(
    private readonly orders: SalesOrdersRepository,
    private readonly events: SalesOrderEvents,
    private readonly change: OrderChange,
  ) {}

  async execute(key: OrderKey, ifMatch: IfMatchCondition): Promise<void> {
    await this.orders.transaction(async (tx) => {
      const deleted = await this.orders.deleteIfMatch(tx, key, versionsForUpdate(ifMatch));
      if (!deleted) throw await this.change.missingOrStale(tx, key);
      await this.events.add(tx, 'SALESORDER_DELETED', { ...key, ...deleted });
    });
  }
}
