import { Injectable } from '@nestjs/common';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { subscriptionId, subscriptionNotFound } from '../rules/subscription-rules';

/** DELETE /api/webhooks/subscriptions/{id}: its deliveries go with it. */
@Injectable()
export class DeleteSubscription {
  constructor(private readonly subscriptions: SubscriptionsRepository) {}

  async execute(companyId: string, id: string): Promise<void> {
    if (!(await this.subscriptions.delete(companyId, subscriptionId(id)))) throw subscriptionNotFound(id);
  }
}
