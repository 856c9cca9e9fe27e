import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DomainEvent, type SalesOrderEventData, salesOrderLink, salesOrderSubject, type SalesOrderStatus } from '@erp/contracts';
import { type EventProducer, Outbox } from '@erp/messaging';

export type SalesOrderEventType = 'SALESORDER_CREATED' | 'SALESORDER_UPDATED' | 'SALESORDER_DELETED';

/** An order as an event describes it: what a webhook receiver needs, read in the change's transaction. */
export interface SalesOrderChange {
  companyId: string;
  type: string;
  orderId: string;
  customerId: string;
  status: string;
  /** The version after the change (for a deletion, one drawn for it). */
  version: string;
  /** When the change happened, ISO 8601 with zone. */
  time: string;
  /** A created or updated order's currency, totals and priced lines (JSON text, decimals as strings); none for a deletion. */
  eventData?: string;
}

/**
 * Announces order changes through the transactional outbox: the event is written in the same
 * transaction as the change, so it exists exactly when the change does (nothing for a rejected
 * or rolled-back request) and the relay publishes it to `erp.sales-orders.sales-order.v3` after
 * the commit, keyed by company and order so one order's events stay in order.
 */
@Injectable()
export class SalesOrderEvents implements EventProducer<SalesOrderEventType, SalesOrderChange> {
  constructor(private readonly outbox: Outbox) {}

  add(tx: EntityManager, type: SalesOrderEventType, change: SalesOrderChange): Promise<DomainEvent<SalesOrderEventType>> {
    return this.outbox.add(tx, {
      type,
      companyId: change.companyId,
      subject: salesOrderSubject(change.type, change.orderId),
      time: change.time,
      data: {
        type: change.type,
        orderId: change.orderId,
        customerId: change.customerId,
        status: change.status as SalesOrderStatus,
        version: change.version,
        link: salesOrderLink(change.type, change.orderId),
        ...(change.eventData === undefined ? {} : (JSON.parse(change.eventData) as Pick<SalesOrderEventData, 'currencyId' | 'totals' | 'lines'>)),
      },
    });
  }
}
