import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@erp/auth';
import { authSettingsFrom } from '@erp/bootstrap';
import { DatabaseModule } from '@erp/database';
import { IdempotencyModule } from '@erp/idempotency';
import { internalApiAuthFrom } from '@erp/internal-api';
import { MessagingModule, messagingOptionsFrom } from '@erp/messaging';
import { HealthModule } from '@erp/observability';
import { OpenApiModule } from '@erp/openapi';
import type { CustomersConfig } from './config';
import { CustomersController } from './customers/customers.controller';
import { CustomersInternalController } from './customers/customers-internal.controller';
import { CUSTOMER_SCHEMAS } from './customers/customers.openapi';
import { CUSTOMER_V3_SCHEMAS } from './customers/customers-v3.openapi';
import { CustomersV3Controller } from './customers/customers-v3.controller';
import { CUSTOMER_SETTINGS, type CustomerSettings } from './customers/customer-settings';
import { CUSTOMER_PROVIDERS } from './customers/customers.providers';
import { CUSTOMERS_ENTITIES, CUSTOMERS_MIGRATIONS } from './database';
import { NameCountsModule } from './name-counts/name-counts.module';

@Module({})
export class CustomersAppModule {
  static forRoot(config: CustomersConfig): DynamicModule {
    const settings = customerSettingsFrom(config);
    return {
      module: CustomersAppModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          sessionUrl: config.DATABASE_SESSION_URL,
          preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'true',
          entities: CUSTOMERS_ENTITIES,
          migrations: CUSTOMERS_MIGRATIONS,
          applicationName: 'customers-v1',
          poolSize: config.DATABASE_POOL_SIZE,
          // Requests run as <db>_app behind the tenant views (RELIABILITY.md "Defence in depth").
          tenantIsolation: true,
        }),
        // Publishes CUSTOMER_CREATED / CUSTOMER_UPDATED through the outbox; consumes nothing.
        MessagingModule.forRoot(messagingOptionsFrom(config, { clientId: 'customers-v1' })),
        // Idempotency-Key on every POST and PATCH: the answer stored with the effect (@erp/idempotency).
        IdempotencyModule.forRoot({ retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS }),
        AuthModule.forRoot(authSettingsFrom(config), { requireApplicationType: true, internalApi: internalApiAuthFrom(config, 'customers-v1') }),
        HealthModule.forRoot(),
        NameCountsModule.forRoot(settings.nameCounts),
        OpenApiModule.forRoot({
          title: 'Customers',
          version: '1',
          schemas: { ...CUSTOMER_SCHEMAS, ...CUSTOMER_V3_SCHEMAS },
          pageLimits: { CUSTOMER_MAX_PAGE_SIZE: config.CUSTOMER_MAX_PAGE_SIZE },
        }),
      ],
      controllers: [CustomersController, CustomersV3Controller, CustomersInternalController],
      providers: [...CUSTOMER_PROVIDERS, { provide: CUSTOMER_SETTINGS, useValue: settings }],
    };
  }
}

function customerSettingsFrom(config: CustomersConfig): CustomerSettings {
  return {
    maxPageSize: config.CUSTOMER_MAX_PAGE_SIZE,
    nameCounts: {
      minMatches: config.CUSTOMER_NAME_COUNT_MIN_MATCHES,
      perCompany: config.CUSTOMER_NAME_COUNTS_PER_COMPANY,
      replaceIntervalMs: config.CUSTOMER_NAME_COUNT_REPLACE_INTERVAL_MS,
    },
  };
}
