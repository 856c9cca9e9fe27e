import { Inject, Injectable } from '@nestjs/common';
import { parseCustomerV3ListQuery } from '@erp/customers-queries';
import { v3NextPage, v3PageBodyFromJson } from '@erp/paging';
import { CUSTOMER_SETTINGS, type CustomerSettings } from '../customer-settings';
import { CustomersRepository } from '../repository/customers.repository';

/** GET /api/v3/Customers: one page of the v3 view in the v3 envelope `{ value, totalCount, nextPage }`. */
@Injectable()
export class ListCustomersV3 {
  constructor(
    private readonly customers: CustomersRepository,
    @Inject(CUSTOMER_SETTINGS) private readonly settings: CustomerSettings,
  ) {}

  async execute(companyId: string, rawQuery: Record<string, string | string[] | undefined>, request: { path: string; rawQuery: string }): Promise<string> {
    const query = parseCustomerV3ListQuery(rawQuery, this.settings.maxPageSize);
    const { items, totalCount } = await this.customers.v3Page(companyId, query);
    const page = { pageIndex: query.page.pageNumber - 1, pageSize: query.page.pageSize, offset: query.page.offset, maxPageSize: query.page.maxPageSize };
    return v3PageBodyFromJson(items, totalCount, v3NextPage(request.path, request.rawQuery, page, totalCount));
  }
}
