import { Injectable } from '@nestjs/common';
import type { CustomerEventData } from '@erp/contracts';
import { NotFoundError } from '@erp/errors';
import { CustomersRepository } from '../repository/customers.repository';
import { customerEventData } from '../../events/customer-events';

/**
 * GET /internal/v1/customers/{number} (another service, for one company): the customer as its
 * latest event carries it, for a service that has not received that event yet; 404 when the
 * company has no such customer (the tenant wall answers for another company's as for none).
 */
@Injectable()
export class GetCustomerReference {
  constructor(private readonly customers: CustomersRepository) {}

  async execute(companyId: string, number: string): Promise<CustomerEventData> {
    const customer = await this.customers.find(companyId, number);
    if (!customer) throw new NotFoundError(`Customer ${number}`);
    return customerEventData(customer);
  }
}
