import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { parseCustomerListQuery } from '@erp/customers-queries';
import { CUSTOMER_SETTINGS, type CustomerSettings } from '../customer-settings';
import { CustomersRepository } from '../repository/customers.repository';

/** GET /v1/customer: one page as a JSON array (text, or streamed); unknown or bad parameters are 400 before any SQL. */
@Injectable()
export class ListCustomers {
  constructor(
    private readonly customers: CustomersRepository,
    @Inject(CUSTOMER_SETTINGS) private readonly settings: CustomerSettings,
  ) {}

  execute(companyId: string, query: Record<string, string | string[] | undefined>): Promise<string | Readable> {
    return this.customers.page(companyId, parseCustomerListQuery(query, this.settings.maxPageSize));
  }
}
