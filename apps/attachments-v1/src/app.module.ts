import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@erp/auth';
import { authSettingsFrom } from '@erp/bootstrap';
import { DatabaseModule } from '@erp/database';
import { IdempotencyModule } from '@erp/idempotency';
import { internalApiClientProvider } from '@erp/internal-api';
import { MessagingModule, messagingOptionsFrom } from '@erp/messaging';
import { HealthModule } from '@erp/observability';
import { OpenApiModule } from '@erp/openapi';
import { ATTACHMENT_SCHEMAS } from './attachments/attachments.openapi';
import { AttachmentsController } from './attachments/attachments.controller';
import { ATTACHMENT_PROVIDERS } from './attachments/attachments.providers';
import { MultipartRegistrar } from './attachments/multipart.registrar';
import { ORPHAN_SWEEPER_SETTINGS } from './attachments/orphan-sweeper';
import { ATTACHMENT_SETTINGS } from './attachments/use-cases/upload-attachment.use-case';
import type { AttachmentsConfig } from './config';
import { ATTACHMENTS_ENTITIES, ATTACHMENTS_MIGRATIONS } from './database';
import { AttachmentEvents } from './events/attachment-events';
import { AttachmentOwners } from './owners/attachment-owners';
import { AttachmentOwnersRepository } from './owners/attachment-owners.repository';
import { CUSTOMERS_API, OwnerServices, SUPPLIER_INVOICES_API } from './owners/owner-services';
import { OwnerEventsController } from './owners/owner-events.controller';
import { createObjectStorage } from './storage/create-object-storage';
import { OBJECT_STORAGE } from './storage/object-storage';
import { StorageReadiness } from './storage/storage-readiness';

@Module({})
export class AttachmentsAppModule {
  static forRoot(config: AttachmentsConfig): DynamicModule {
    return {
      module: AttachmentsAppModule,
      imports: [
        DatabaseModule.forRoot({
          url: config.DATABASE_URL,
          sessionUrl: config.DATABASE_SESSION_URL,
          preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'true',
          entities: ATTACHMENTS_ENTITIES,
          migrations: ATTACHMENTS_MIGRATIONS,
          applicationName: 'attachments-v1',
          poolSize: config.DATABASE_POOL_SIZE,
          // Row-level security per company for request traffic (RELIABILITY.md "Defence in depth").
          tenantIsolation: true,
        }),
        // Publishes ATTACHMENT_CREATED through the outbox; consumes the owners' created events.
        MessagingModule.forRoot(messagingOptionsFrom(config, { clientId: 'attachments-v1' })),
        // Idempotency-Key on every POST and PATCH: the answer stored with the effect (@erp/idempotency).
        IdempotencyModule.forRoot({ retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS }),
        AuthModule.forRoot(authSettingsFrom(config), { requireApplicationType: true }),
        HealthModule.forRoot(),
        OpenApiModule.forRoot({ title: 'Attachments', version: '1', schemas: ATTACHMENT_SCHEMAS }),
      ],
      controllers: [AttachmentsController, OwnerEventsController],
      providers: [
        MultipartRegistrar,
        ...ATTACHMENT_PROVIDERS,
        AttachmentOwners,
        AttachmentOwnersRepository,
        OwnerServices,
        internalApiClientProvider({ provide: CUSTOMERS_API, caller: 'attachments-v1', target: 'customers-v1', urls: config.CUSTOMERS_URL, config }),
        internalApiClientProvider({ provide: SUPPLIER_INVOICES_API, caller: 'attachments-v1', target: 'supplier-invoices-v1', urls: config.SUPPLIER_INVOICES_URL, config }),
        AttachmentEvents,
        StorageReadiness,
        { provide: OBJECT_STORAGE, useFactory: () => createObjectStorage(config) },
        { provide: ATTACHMENT_SETTINGS, useValue: { maxBytes: config.ATTACHMENT_MAX_BYTES } },
        {
          provide: ORPHAN_SWEEPER_SETTINGS,
          useValue: { maxAgeMinutes: config.ORPHAN_MAX_AGE_MINUTES, intervalSeconds: config.ORPHAN_SWEEP_INTERVAL_SECONDS },
        },
      ],
    };
  }
}
