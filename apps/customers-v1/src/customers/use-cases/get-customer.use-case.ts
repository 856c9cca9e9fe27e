import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { type CustomerRecord, CustomersRepository } from '../repository/customers.repository';

/** GET /v1/customer/{number}: the customer and its version; 404 when absent or another company's. */
@Injectable()
export class GetCustomer {
  constructor(private readonly customers: CustomersRepository) {}

  async execute(companyId: string, number: string): Promise<CustomerRecord> {
    const customer = await this.customers.find(companyId, number);
    if (!customer) throw new NotFoundError(`Customer ${number}`);
    return customer;
  }
}
