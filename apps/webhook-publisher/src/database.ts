import { CreateIdempotencyKeys1797000000000 } from '@erp/idempotency';
import { PROCESSED_EVENTS_ENTITIES, PROCESSED_EVENTS_MIGRATIONS } from '@erp/messaging';
import { WebhookDeliveryAttemptEntity, WebhookDeliveryEntity } from './delivery/delivery.entity';
import { WebhookEventEntity } from './events/webhook-event.entity';
import { CreateWebhooks1764300000000 } from './migrations/1764300000000-create-webhooks';
import { EnableRowLevelSecurity1764500000000 } from './migrations/1764500000000-enable-row-level-security';
import { AddDeliveryTraceContext1795300000100 } from './migrations/1795300000100-add-delivery-trace-context';
import { WallByTenantViews1795835600000 } from './migrations/1795835600000-wall-by-tenant-views';
import { DropRowLevelSecurity1795835600001 } from './migrations/1795835600001-drop-row-level-security';
import { CreateServiceRole1796000000000 } from './migrations/1796000000000-create-service-role';
import { WebhookSubscriptionEntity } from './subscriptions/subscription.entity';

/** Everything this service keeps in its database; the migrations are the schema's source of truth. */
export const WEBHOOKS_ENTITIES = [
  ...PROCESSED_EVENTS_ENTITIES,
  WebhookSubscriptionEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryAttemptEntity,
];
export const WEBHOOKS_MIGRATIONS = [
  ...PROCESSED_EVENTS_MIGRATIONS,
  CreateWebhooks1764300000000,
  EnableRowLevelSecurity1764500000000,
  AddDeliveryTraceContext1795300000100,
  WallByTenantViews1795835600000,
  DropRowLevelSecurity1795835600001,
  CreateServiceRole1796000000000,
  // The stored answers of keyed writes (Idempotency-Key, @erp/idempotency).
  CreateIdempotencyKeys1797000000000,
];
