import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DETAIL_CODES, NotFoundError, PreconditionFailedError, ValidationFailedError } from '@erp/errors';
import { SalesOrderEvents, type SalesOrderEventType } from '../../events/sales-order-events';
import { type OrderKey, SalesOrdersRepository, type WrittenOrder } from '../repository/sales-orders.repository';

/** The steps every order write ends with, shared by the write use cases. */
@Injectable()
export class OrderChange {
  constructor(
    private readonly orders: SalesOrdersRepository,
    private readonly events: SalesOrderEvents,
  ) {}

  /** Adds the event of an order its last write already answered as written, in the write's transaction. */
  async announce(tx: EntityManager, companyId: string, order: WrittenOrder, eventType: SalesOrderEventType): Promise<WrittenOrder> {
    await this.events.add(tx, eventType, { companyId, ...order });
    return order;
  }

  /**
   * Recomputes the order's totals (the last step of a write that changes them) and answers the order
   * as written; 400 on `currencyId` when the order needs an exchange rate that is not in force on its date.
   */
  async totals(tx: EntityManager, companyId: string, internalId: string): Promise<WrittenOrder> {
    const order = await this.orders.recomputeTotals(tx, companyId, internalId);
    if (order) return order;
    const missing = await this.orders.missingRate(tx, companyId, internalId);
    throw new ValidationFailedError([
      {
        field: 'currencyId',
        message: `no exchange rate from ${missing.currencyId} to the base currency ${missing.baseCurrencyId} is in force on ${missing.day}: add one with PUT /api/v3/CurrencyRates`,
        code: DETAIL_CODES.unknownReference,
      },
    ]);
  }

  /** After a conditional write matched nothing: 404 when the order is not there, else 412. */
  async missingOrStale(tx: EntityManager, key: OrderKey): Promise<Error> {
    return (await this.orders.findState(key, tx)) ? new PreconditionFailedError() : new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
  }
}
