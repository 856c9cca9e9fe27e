import { Inject, Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@erp/errors';
import { DeliveryWorkerService } from '../../delivery/delivery-worker.service';
import type { PublisherName } from '../../publishers/publishers';
import type { UpdateSubscriptionDto } from '../dto/subscription.dto';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { eventTypeProblems, subscriptionNotFound, urlProblems } from '../rules/subscription-rules';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import type { SubscriptionView } from '../subscription-views';
import { GetSubscription } from './get-subscription.use-case';

/**
 * PATCH /api/webhooks/subscriptions/{id}: 404 first, then the new event types (against the
 * subscription's publisher) and URL checked. Re-enabling resumes its paused deliveries at once.
 */
@Injectable()
export class UpdateSubscription {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly getSubscription: GetSubscription,
    private readonly worker: DeliveryWorkerService,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
  ) {}

  async execute(companyId: string, id: string, dto: UpdateSubscriptionDto): Promise<SubscriptionView> {
    const current = await this.getSubscription.execute(companyId, id);
    const problems = [
      ...(dto.eventTypes ? eventTypeProblems(current.publisher as PublisherName, dto.eventTypes) : []),
      ...(dto.url !== undefined ? await urlProblems(dto.url, this.settings) : []),
    ];
    if (problems.length > 0) throw new ValidationFailedError(problems);
    const updated = await this.subscriptions.update(companyId, id, dto);
    if (!updated) throw subscriptionNotFound(id);
    if (dto.enabled) this.worker.wake();
    return updated;
  }
}
