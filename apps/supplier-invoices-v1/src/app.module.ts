import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@erp/auth';
import { authSettingsFrom } from '@erp/bootstrap';
import { DatabaseModule } from '@erp/database';
import { IdempotencyModule } from '@erp/idempotency';
import { internalApiAuthFrom } from '@erp/internal-api';
import { MessagingModule, messagingOptionsFrom } from '@erp/messaging';
import { HealthModule } from '@erp/observability';
import { OpenApiModule } from '@erp/openapi';
import { SUPPLIER_INVOICE_SCHEMAS } from './supplier-invoices/supplier-invoices.openapi';
import type { SupplierInvoicesConfig } from './config';
import { SUPPLIER_INVOICES_ENTITIES, SUPPLIER_INVOICES_MIGRATIONS } from './database';
import { SupplierInvoiceEvents } from './events/supplier-invoice-events';
import { InvoiceAttachmentEventsController } from './invoice-attachments/invoice-attachment-events.controller';
import { InvoiceAttachmentsInternalController } from './invoice-attachments/invoice-attachments-internal.controller';
import { InvoiceAttachmentsRepository } from './invoice-attachments/invoice-attachments.repository';
import { ReceiveAttachmentEvent } from './invoice-attachments/use-cases/receive-attachment-event.use-case';
import { SupplierInvoicesController } from './supplier-invoices/supplier-invoices.controller';
import { SupplierInvoicesInternalController } from './supplier-invoices/supplier-invoices-internal.controller';
import { SUPPLIER_INVOICE_SETTINGS } from './supplier-invoices/supplier-invoice-settings';
import { SUPPLIER_INVOICE_PROVIDERS } from './supplier-invoices/supplier-invoices.providers';

@Module({})
export class SupplierInvoicesAppModule {
  static forRoot(config: SupplierInvoicesConfig): DynamicModule {
    return {
      module: SupplierInvoicesAppModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          sessionUrl: config.DATABASE_SESSION_URL,
          preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'true',
          entities: SUPPLIER_INVOICES_ENTITIES,
          migrations: SUPPLIER_INVOICES_MIGRATIONS,
          applicationName: 'supplier-invoices-v1',
          poolSize: config.DATABASE_POOL_SIZE,
          // Row-level security per company for request traffic (RELIABILITY.md "Defence in depth").
          tenantIsolation: true,
        }),
        // Publishes SUPPLIERINVOICE_CREATED / _UPDATED through the outbox; consumes ATTACHMENT_CREATED.
        MessagingModule.forRoot(messagingOptionsFrom(config, { clientId: 'supplier-invoices-v1' })),
        // Idempotency-Key on every POST and PATCH: the answer stored with the effect (@erp/idempotency).
        IdempotencyModule.forRoot({ retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS }),
        AuthModule.forRoot(authSettingsFrom(config), { requireApplicationType: true, internalApi: internalApiAuthFrom(config, 'supplier-invoices-v1') }),
        HealthModule.forRoot(),
        OpenApiModule.forRoot({
          title: 'Supplier invoices',
          version: '1',
          schemas: SUPPLIER_INVOICE_SCHEMAS,
          pageLimits: { SUPPLIER_INVOICE_MAX_PAGE_SIZE: config.SUPPLIER_INVOICE_MAX_PAGE_SIZE },
        }),
      ],
      controllers: [SupplierInvoicesController, SupplierInvoicesInternalController, InvoiceAttachmentEventsController, InvoiceAttachmentsInternalController],
      providers: [
        ...SUPPLIER_INVOICE_PROVIDERS,
        InvoiceAttachmentsRepository,
        ReceiveAttachmentEvent,
        SupplierInvoiceEvents,
        { provide: SUPPLIER_INVOICE_SETTINGS, useValue: { maxPageSize: config.SUPPLIER_INVOICE_MAX_PAGE_SIZE } },
      ],
    };
  }
}
