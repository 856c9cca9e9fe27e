import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ValidationFailedError } from '@erp/errors';
import { generateSecret } from '../../delivery/signing';
import type { CreateSubscriptionDto } from '../dto/subscription.dto';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { eventTypeProblems, urlProblems } from '../rules/subscription-rules';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import type { CreatedSubscription } from '../subscription-views';

/** POST /api/webhooks/subscriptions: the event types and the target URL checked, then the subscription with a new secret. */
@Injectable()
export class CreateSubscription {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
  ) {}

  async execute(companyId: string, dto: CreateSubscriptionDto): Promise<CreatedSubscription> {
    const problems = [...eventTypeProblems(dto.publisher, dto.eventTypes), ...(await urlProblems(dto.url, this.settings))];
    if (problems.length > 0) throw new ValidationFailedError(problems);
    const secret = generateSecret();
    const created = await this.subscriptions.insert({
      id: randomUUID(),
      companyId,
      publisher: dto.publisher,
      eventTypes: dto.eventTypes,
      url: dto.url,
      description: dto.description ?? null,
      secret,
    });
    return { ...created, secret };
  }
}
