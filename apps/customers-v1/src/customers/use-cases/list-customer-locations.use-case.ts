import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@erp/errors';
import { CustomersRepository } from '../repository/customers.repository';

/** GET /api/v3/Customers/{customerId}/locations: a JSON array; 404 when absent or another company's. */
@Injectable()
export class ListCustomerLocations {
  constructor(private readonly customers: CustomersRepository) {}

  async execute(companyId: string, number: string): Promise<string> {
    const locations = await this.customers.locations(companyId, number);
    if (!locations) throw new NotFoundError(`Customer ${number}`);
    return `[${locations.join(',')}]`;
  }
}
