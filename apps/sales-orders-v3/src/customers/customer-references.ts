import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CustomerEventData, INTERNAL_ROUTES } from '@erp/contracts';
import type { InternalApiClient } from '@erp/internal-api';
import { INACTIVE_CUSTOMER_STATUS } from '@erp/sales-orders-queries';
import { type CustomerSnapshot, CustomerSnapshotsService } from './customer-snapshots.service';

/** The client of customers-v1's internal API (provided by the app module). */
export const CUSTOMERS_API = Symbol('CUSTOMERS_API');
/** Unknown customers of one request asked of customers-v1 at once (a price class may name hundreds). */
const OWNER_CALLS_AT_ONCE = 8;

/**
 * The customer an order names, for the order use cases: from the snapshot the customer events keep
 * and, when the snapshot cannot say yes (no such customer yet, or inactive as of the last event),
 * from customers-v1 itself (docs/cross-service-reads.md). So an order for a customer created a
 * moment ago, or re-activated a moment ago, is not refused because the event is still on its way;
 * "does not exist" and "is inactive" are answers of the owner. Its answer goes into the snapshot
 * as its event would (newer version wins), so the event, when it comes, changes nothing.
 */
@Injectable()
export class CustomerReferences {
  constructor(
    private readonly snapshots: CustomerSnapshotsService,
    @Inject(CUSTOMERS_API) private readonly customers: InternalApiClient,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  /**
   * Which of the customer numbers exist (price classes and lists name customers): those in the
   * snapshot, and of the others those customers-v1 has (asked a few at a time; each kept in the
   * snapshot). A 503 when customers-v1 cannot be asked about one.
   */
  async existing(companyId: string, customerIds: string[]): Promise<Set<string>> {
    const known = await this.snapshots.known(this.db.manager, companyId, customerIds);
    const unknown = [...new Set(customerIds.filter((id) => !known.has(id)))];
    for (let i = 0; i < unknown.length; i += OWNER_CALLS_AT_ONCE) {
      const found = await Promise.all(unknown.slice(i, i + OWNER_CALLS_AT_ONCE).map((id) => this.askOwner(companyId, id)));
      for (const customer of found) if (customer) known.add(customer.customerId);
    }
    return known;
  }

  /** Undefined when customers-v1 has no such customer for the company; a 503 when it cannot be asked. */
  async find(companyId: string, customerId: string): Promise<CustomerSnapshot | undefined> {
    const known = await this.snapshots.find(this.db.manager, companyId, customerId);
    if (known && known.status !== INACTIVE_CUSTOMER_STATUS) return known;
    return this.askOwner(companyId, customerId);
  }

  /** customers-v1's answer, kept in the snapshot as the customer's event would be. */
  private async askOwner(companyId: string, customerId: string): Promise<CustomerSnapshot | undefined> {
    const answer = await this.customers.read(companyId, INTERNAL_ROUTES.customer.path(customerId), CustomerEventData);
    if (!answer.found) return undefined;
    const owner = answer.body;
    await this.snapshots.apply(this.db.manager, companyId, owner);
    return { customerId, name: owner.name, status: owner.status, currencyId: owner.currencyId, version: owner.version };
  }
}
