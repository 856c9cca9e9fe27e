import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NotFoundError, PreconditionFailedError } from '@erp/errors';
import { SalesOrderEvents, type SalesOrderEventType } from '../../events/sales-order-events';
import { type OrderKey, SalesOrdersRepository, type WrittenOrder } from '../repository/sales-orders.repository';

/** The steps every order write ends with, shared by the write use cases. */
@Injectable()
export class OrderChange {
  constructor(
    private readonly orders: SalesOrdersRepository,
    private readonly events: SalesOrderEvents,
  ) {}

  /** Reads the order as the response shows it (every part) and adds its event, in the write's transaction. */
  async record(tx: EntityManager, companyId: string, internalId: string, eventType: SalesOrderEventType): Promise<WrittenOrder> {
    return this.announce(tx, companyId, await this.orders.readWritten(tx, companyId, internalId), eventType);
  }

  /** Adds the event of an order its last write already answered as written, in the write's transaction. */
  async announce(tx: EntityManager, companyId: string, order: WrittenOrder, eventType: SalesOrderEventType): Promise<WrittenOrder> {
    await this.events.add(tx, eventType, { companyId, ...order });
    return order;
  }

  /** After a conditional write matched nothing: 404 when the order is not there, else 412. */
  async missingOrStale(tx: EntityManager, key: OrderKey): Promise<Error> {
    return (await this.orders.findState(key, tx)) ? new PreconditionFailedError() : new NotFoundError(`Sales order ${key.type} ${key.orderId}`);
  }
}
