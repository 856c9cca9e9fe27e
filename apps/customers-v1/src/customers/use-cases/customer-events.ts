import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { customerLink, type CustomerStatus } from '@erp/contracts';
import { Outbox } from '@erp/messaging';
import type { CustomerRecord } from '../repository/customers.repository';

/**
 * A customer change's event, added in the change's transaction: it is published exactly when the
 * change commits. Added after the write, which holds the customer's row lock, so two changes of
 * one customer reach the outbox (and Kafka) in commit order.
 */
@Injectable()
export class CustomerEvents {
  constructor(private readonly outbox: Outbox) {}

  async add(tx: EntityManager, companyId: string, type: 'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED', customer: CustomerRecord): Promise<void> {
    const wire = JSON.parse(customer.json) as {
      name: string;
      status: CustomerStatus;
      currencyId: string | null;
      lastModifiedDateTime: string;
    };
    await this.outbox.add(tx, {
      type,
      companyId,
      subject: customer.number,
      // The API shows UTC without a zone; the envelope's time carries it.
      time: `${wire.lastModifiedDateTime}Z`,
      data: {
        number: customer.number,
        name: wire.name,
        status: wire.status,
        currencyId: wire.currencyId,
        version: customer.version,
        lastModifiedDateTime: wire.lastModifiedDateTime,
        link: customerLink(customer.number),
      },
    });
  }
}
