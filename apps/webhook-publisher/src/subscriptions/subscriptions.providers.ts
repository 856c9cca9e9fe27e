import type { Provider } from '@nestjs/common';
import { SubscriptionsRepository } from './repository/subscriptions.repository';
import { CreateSubscription } from './use-cases/create-subscription.use-case';
import { DeleteSubscription } from './use-cases/delete-subscription.use-case';
import { GetSubscription } from './use-cases/get-subscription.use-case';
import { ListDeliveryAttempts } from './use-cases/list-delivery-attempts.use-case';
import { ListSubscriptions } from './use-cases/list-subscriptions.use-case';
import { ReplayEvents } from './use-cases/replay-events.use-case';
import { RotateSubscriptionSecret } from './use-cases/rotate-secret.use-case';
import { UpdateSubscription } from './use-cases/update-subscription.use-case';

/** The subscription use cases (one per operation) and the repository they write through. */
export const SUBSCRIPTION_PROVIDERS: Provider[] = [
  SubscriptionsRepository,
  CreateSubscription,
  ListSubscriptions,
  GetSubscription,
  UpdateSubscription,
  DeleteSubscription,
  RotateSubscriptionSecret,
  ListDeliveryAttempts,
  ReplayEvents,
];
