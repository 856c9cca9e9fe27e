import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CustomerEventData, customerLink, type CustomerStatus, type DomainEvent } from '@erp/contracts';
import { type EventProducer, Outbox } from '@erp/messaging';
import type { CustomerRecord } from '../customers/repository/customers.repository';

export type CustomerEventType = 'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED';

/** A customer change as its event describes it: the company and the customer just written. */
export interface CustomerChange extends CustomerRecord {
  companyId: string;
}

/**
 * The customer as its events carry it: the values `GET /v1/customer/{number}` shows at this
 * version. The internal read answers the same (a consumer applies either the same way).
 */
export function customerEventData(customer: CustomerRecord): CustomerEventData {
  const wire = JSON.parse(customer.json) as {
    name: string;
    status: CustomerStatus;
    currencyId: string | null;
    lastModifiedDateTime: string;
  };
  return {
    number: customer.number,
    name: wire.name,
    status: wire.status,
    currencyId: wire.currencyId,
    version: customer.version,
    lastModifiedDateTime: wire.lastModifiedDateTime,
    link: customerLink(customer.number),
  };
}

/**
 * A customer change's event, added in the change's transaction: it is published exactly when the
 * change commits. Added after the write, which holds the customer's row lock, so two changes of
 * one customer reach the outbox (and Kafka) in commit order.
 */
@Injectable()
export class CustomerEvents implements EventProducer<CustomerEventType, CustomerChange> {
  constructor(private readonly outbox: Outbox) {}

  add(tx: EntityManager, type: CustomerEventType, change: CustomerChange): Promise<DomainEvent<CustomerEventType>> {
    const data = customerEventData(change);
    return this.outbox.add(tx, {
      type,
      companyId: change.companyId,
      subject: change.number,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${data.lastModifiedDateTime}Z`,
      data,
    });
  }
}
