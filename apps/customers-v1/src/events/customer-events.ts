import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { customerLink, type CustomerStatus } from '@erp/contracts';
import { type EventProducer, Outbox } from '@erp/messaging';
import type { CustomerRecord } from '../customers/repository/customers.repository';

export type CustomerEventType = 'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED';

/** A customer change as its event describes it: the company and the customer just written. */
export interface CustomerChange extends CustomerRecord {
  companyId: string;
}

/**
 * A customer change's event, added in the change's transaction: it is published exactly when the
 * change commits. Added after the write, which holds the customer's row lock, so two changes of
 * one customer reach the outbox (and Kafka) in commit order.
 */
@Injectable()
export class CustomerEvents implements EventProducer<CustomerEventType, CustomerChange> {
  constructor(private readonly outbox: Outbox) {}

  async add(tx: EntityManager, type: CustomerEventType, change: CustomerChange): Promise<void> {
    const wire = JSON.parse(change.json) as {
      name: string;
      status: CustomerStatus;
      currencyId: string | null;
      lastModifiedDateTime: string;
    };
    await this.outbox.add(tx, {
      type,
      companyId: change.companyId,
      subject: change.number,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${wire.lastModifiedDateTime}Z`,
      data: {
        number: change.number,
        name: wire.name,
        status: wire.status,
        currencyId: wire.currencyId,
        version: change.version,
        lastModifiedDateTime: wire.lastModifiedDateTime,
        link: customerLink(change.number),
      },
    });
  }
}
