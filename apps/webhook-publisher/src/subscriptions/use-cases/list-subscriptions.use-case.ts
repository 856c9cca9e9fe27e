import { Injectable } from '@nestjs/common';
import { v3NextPage } from '@erp/paging';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { pageRequest } from '../rules/subscription-rules';
import type { Page, SubscriptionView } from '../subscription-views';

/** GET /api/webhooks/subscriptions: the company's subscriptions in creation order, paged. */
@Injectable()
export class ListSubscriptions {
  constructor(private readonly subscriptions: SubscriptionsRepository) {}

  /** `rawQuery` is the request's query string, kept as it is in `nextPage`. */
  async execute(companyId: string, query: Record<string, string | string[] | undefined>, rawQuery: string): Promise<Page<SubscriptionView>> {
    const page = pageRequest(query);
    const { rows, total } = await this.subscriptions.page(companyId, page);
    return { value: rows, totalCount: total, nextPage: v3NextPage('/api/webhooks/subscriptions', rawQuery, page, total) };
  }
}
