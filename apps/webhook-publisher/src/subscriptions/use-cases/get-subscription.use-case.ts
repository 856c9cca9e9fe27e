import { Injectable } from '@nestjs/common';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { subscriptionId, subscriptionNotFound } from '../rules/subscription-rules';
import type { SubscriptionView } from '../subscription-views';

/**
 * GET /api/webhooks/subscriptions/{id}: 404 when it is not there or another company's. The other
 * operations on one subscription start with it, so they answer 404 the same way.
 */
@Injectable()
export class GetSubscription {
  constructor(private readonly subscriptions: SubscriptionsRepository) {}

  async execute(companyId: string, id: string): Promise<SubscriptionView> {
    const subscription = await this.subscriptions.find(companyId, subscriptionId(id));
    if (!subscription) throw subscriptionNotFound(id);
    return subscription;
  }
}
