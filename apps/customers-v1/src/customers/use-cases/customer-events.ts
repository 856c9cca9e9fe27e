import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CustomerEventData, customerLink, type CustomerStatus } from '@erp/contracts';
import { Outbox } from '@erp/messaging';
import type { CustomerRecord } from '../repository/customers.repository';

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
export class CustomerEvents {
  constructor(private readonly outbox: Outbox) {}

  async add(tx: EntityManager, companyId: string, type: 'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED', customer: CustomerRecord): Promise<void> {
    const data = customerEventData(customer);
    await this.outbox.add(tx, {
      type,
      companyId,
      subject: customer.number,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${data.lastModifiedDateTime}Z`,
      data,
    });
  }
}
