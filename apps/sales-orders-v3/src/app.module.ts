import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@erp/auth';
import { authSettingsFrom } from '@erp/bootstrap';
import { DatabaseModule } from '@erp/database';
import { IdempotencyModule } from '@erp/idempotency';
import { internalApiClientProvider } from '@erp/internal-api';
import { MessagingModule, messagingOptionsFrom } from '@erp/messaging';
import { HealthModule } from '@erp/observability';
import { OpenApiModule } from '@erp/openapi';
import { SALES_ORDER_SCHEMAS } from './sales-orders/sales-orders.openapi';
import { INVENTORY_SCHEMAS } from './inventory/inventory.openapi';
import { InventoryController } from './inventory/inventory.controller';
import { INVENTORY_PROVIDERS } from './inventory/inventory.providers';
import { PriceRulesController } from './pricing/price-rules.controller';
import { PRICING_PROVIDERS } from './pricing/pricing.providers';
import { PRICING_SCHEMAS } from './pricing/pricing.openapi';
import type { SalesOrdersConfig } from './config';
import { CustomerEventsController } from './customers/customer-events.controller';
import { CUSTOMERS_API, CustomerReferences } from './customers/customer-references';
import { CustomerSnapshotsService } from './customers/customer-snapshots.service';
import { SALES_ORDERS_ENTITIES, SALES_ORDERS_MIGRATIONS } from './database';
import { SalesOrderEvents } from './events/sales-order-events';
import { SalesOrderLinesController } from './sales-orders/sales-order-lines.controller';
import { SalesOrderViewsController } from './sales-orders/sales-order-views.controller';
import { SalesOrdersController } from './sales-orders/sales-orders.controller';
import { SALES_ORDER_PROVIDERS } from './sales-orders/sales-order.providers';

export const SERVICE_NAME = 'sales-orders-v3';

@Module({})
export class SalesOrdersAppModule {
  static forRoot(config: SalesOrdersConfig): DynamicModule {
    return {
      module: SalesOrdersAppModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          sessionUrl: config.DATABASE_SESSION_URL,
          preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'true',
          entities: SALES_ORDERS_ENTITIES,
          migrations: SALES_ORDERS_MIGRATIONS,
          applicationName: SERVICE_NAME,
          poolSize: config.DATABASE_POOL_SIZE,
          // Requests run as <db>_app behind the tenant views (RELIABILITY.md "Defence in depth").
          tenantIsolation: true,
        }),
        // v3 does not require ipp-application-type (API.md: it is a /v1 rule).
        // Idempotency-Key on every POST and PATCH: the answer stored with the effect (@erp/idempotency).
        IdempotencyModule.forRoot({ retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS }),
        AuthModule.forRoot(authSettingsFrom(config), { requireApplicationType: false }),
        HealthModule.forRoot(),
        OpenApiModule.forRoot({ title: 'Sales orders', version: '3', schemas: { ...SALES_ORDER_SCHEMAS, ...INVENTORY_SCHEMAS, ...PRICING_SCHEMAS } }),
        MessagingModule.forRoot(messagingOptionsFrom(config, { clientId: SERVICE_NAME })),
      ],
      // One module, one providers list per feature (docs/adding-an-endpoint.md "Wiring"): the
      // features share the database and call each other inside one transaction.
      controllers: [SalesOrdersController, SalesOrderLinesController, SalesOrderViewsController, InventoryController, PriceRulesController, CustomerEventsController],
      providers: [
        ...SALES_ORDER_PROVIDERS,
        ...INVENTORY_PROVIDERS,
        ...PRICING_PROVIDERS,
        CustomerSnapshotsService,
        CustomerReferences,
        internalApiClientProvider({ provide: CUSTOMERS_API, caller: SERVICE_NAME, target: 'customers-v1', urls: config.CUSTOMERS_URL, config }),
        SalesOrderEvents,
      ],
    };
  }
}
