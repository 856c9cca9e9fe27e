import { Inject, Injectable } from '@nestjs/common';
import { generateSecret } from '../../delivery/signing';
import { SubscriptionsRepository } from '../repository/subscriptions.repository';
import { subscriptionId, subscriptionNotFound } from '../rules/subscription-rules';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from '../subscription-settings';
import type { RotatedSecret } from '../subscription-views';

/**
 * POST /api/webhooks/subscriptions/{id}/rotate-secret: a new secret; the previous one keeps
 * signing (a second signature) for the overlap period, so receivers can switch without a gap.
 */
@Injectable()
export class RotateSubscriptionSecret {
  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    @Inject(SUBSCRIPTION_SETTINGS) private readonly settings: SubscriptionSettings,
  ) {}

  async execute(companyId: string, id: string): Promise<RotatedSecret> {
    const secret = generateSecret();
    const previousSecretExpiresAt = await this.subscriptions.rotateSecret(companyId, subscriptionId(id), secret, this.settings.secretOverlapMs);
    if (previousSecretExpiresAt === undefined) throw subscriptionNotFound(id);
    return { id, secret, previousSecretExpiresAt };
  }
}
