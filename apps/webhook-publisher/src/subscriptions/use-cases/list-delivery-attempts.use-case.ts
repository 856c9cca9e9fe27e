import { Injectable } from '@nestjs/common';
import { v3NextPage } from '@erp/paging';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { pageRequest } from '../rules/subscription-rules';
import type { DeliveryAttemptView, Page } from '../subscription-views';
import { GetSubscription } from './get-subscription.use-case';

/** GET /api/webhooks/subscriptions/{id}/deliveries: the subscription's attempts, newest first, paged; 404 before any 400. */
@Injectable()
export class ListDeliveryAttempts {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly getSubscription: GetSubscription,
  ) {}

  /** `rawQuery` is the request's query string, kept as it is in `nextPage`. */
  async execute(
    companyId: string,
    id: string,
    query: Record<string, string | string[] | undefined>,
    rawQuery: string,
  ): Promise<Page<DeliveryAttemptView>> {
    await this.getSubscription.execute(companyId, id);
    const page = pageRequest(query);
    const { rows, total } = await this.subscriptions.attemptsPage(companyId, id, page);
    return { value: rows, totalCount: total, nextPage: v3NextPage(`/api/webhooks/subscriptions/${id}/deliveries`, rawQuery, page, total) };
  }
}
