import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@erp/auth';
import { authSettingsFrom } from '@erp/bootstrap';
import { DatabaseModule } from '@erp/database';
import { IdempotencyModule } from '@erp/idempotency';
import { MessagingModule, messagingOptionsFrom } from '@erp/messaging';
import { HealthModule } from '@erp/observability';
import { OpenApiModule } from '@erp/openapi';
import { WEBHOOK_SCHEMAS } from './subscriptions/webhooks.openapi';
import type { WebhookPublisherConfig } from './config';
import { WEBHOOKS_ENTITIES, WEBHOOKS_MIGRATIONS } from './database';
import { DELIVERY_SETTINGS, type DeliverySettings, DeliveryWorkerService } from './delivery/delivery-worker.service';
import { parseDurations } from './delivery/retry-schedule';
import { WebhookEventsController } from './events/webhook-events.controller';
import { PublishersController } from './publishers/publishers.controller';
import { SubscriptionsController } from './subscriptions/subscriptions.controller';
import { SUBSCRIPTION_SETTINGS, type SubscriptionSettings } from './subscriptions/subscription-settings';
import { SUBSCRIPTION_PROVIDERS } from './subscriptions/subscriptions.providers';

export interface WebhookPublisherOverrides {
  /** Host resolution for the subscription URL check (tests). */
  resolveHost?: (host: string) => Promise<string[]>;
}

@Module({})
export class WebhookPublisherAppModule {
  static forRoot(config: WebhookPublisherConfig, overrides: WebhookPublisherOverrides = {}): DynamicModule {
    const allowPrivateTargets = config.WEBHOOKS_ALLOW_PRIVATE_TARGETS === 'true';
    const delivery: DeliverySettings = {
      enabled: config.WEBHOOKS_DELIVERY_WORKER === 'true',
      retry: {
        schedule: parseDurations(config.WEBHOOKS_RETRY_SCHEDULE),
        jitter: config.WEBHOOKS_RETRY_JITTER,
        maxRetryAfterMs: config.WEBHOOKS_MAX_RETRY_AFTER_MS,
      },
      timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
      concurrency: config.WEBHOOKS_CONCURRENCY,
      pollIntervalMs: config.WEBHOOKS_POLL_INTERVAL_MS,
      leaseMs: Math.max(config.WEBHOOKS_LEASE_MS, config.WEBHOOKS_TIMEOUT_MS + 1_000),
      disableAfterFailingMs: config.WEBHOOKS_DISABLE_AFTER_FAILING_MS,
      eventRetentionMs: config.WEBHOOKS_EVENT_RETENTION_DAYS * 86_400_000,
      allowPrivateTargets,
    };
    const subscriptions: SubscriptionSettings = {
      allowPrivateTargets,
      secretOverlapMs: config.WEBHOOKS_SECRET_OVERLAP_MS,
      resolveHost: overrides.resolveHost,
    };
    // The event handlers exist (and their consumer group is joined) only where the intake is on.
    const eventControllers = config.WEBHOOKS_CONSUMER === 'true' ? [WebhookEventsController] : [];
    return {
      module: WebhookPublisherAppModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          sessionUrl: config.DATABASE_SESSION_URL,
          preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'true',
          entities: WEBHOOKS_ENTITIES,
          migrations: WEBHOOKS_MIGRATIONS,
          applicationName: 'webhook-publisher',
          poolSize: config.DATABASE_POOL_SIZE,
          // Row-level security per company for request traffic (RELIABILITY.md "Defence in depth").
          tenantIsolation: true,
        }),
        // Idempotency-Key on every POST and PATCH: the answer stored with the effect (@erp/idempotency).
        IdempotencyModule.forRoot({ retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS }),
        AuthModule.forRoot(authSettingsFrom(config), { requireApplicationType: false }),
        HealthModule.forRoot(),
        OpenApiModule.forRoot({ title: 'Webhooks', version: '1', schemas: WEBHOOK_SCHEMAS }),
        MessagingModule.forRoot(
          messagingOptionsFrom(config, {
            clientId: 'webhook-publisher',
            relay: false,
            // Order only matters per aggregate, i.e. within a partition: partitions run side by side.
            consumers: {
              partitionsConsumedConcurrently: config.WEBHOOKS_CONSUMER_PARTITIONS_CONCURRENTLY,
              sessionTimeoutMs: config.WEBHOOKS_CONSUMER_SESSION_TIMEOUT_MS,
              heartbeatIntervalMs: Math.min(3_000, Math.floor(config.WEBHOOKS_CONSUMER_SESSION_TIMEOUT_MS / 3)),
            },
          }),
        ),
      ],
      controllers: [PublishersController, SubscriptionsController, ...eventControllers],
      providers: [
        ...SUBSCRIPTION_PROVIDERS,
        DeliveryWorkerService,
        { provide: SUBSCRIPTION_SETTINGS, useValue: subscriptions },
        { provide: DELIVERY_SETTINGS, useValue: delivery },
      ],
    };
  }
}
