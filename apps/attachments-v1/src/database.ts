import { CreateIdempotencyKeys1797000000000 } from '@erp/idempotency';
import { MESSAGING_ENTITIES, MESSAGING_MIGRATIONS } from '@erp/messaging';
import { AttachmentEntity, AttachmentRevisionEntity, PendingUploadEntity } from './attachments/attachment.entity';
import { CreateAttachments1763900000100 } from './migrations/1763900000100-create-attachments';
import { EnableRowLevelSecurity1764500000000 } from './migrations/1764500000000-enable-row-level-security';
import { WallByTenantViews1795835600000 } from './migrations/1795835600000-wall-by-tenant-views';
import { DropRowLevelSecurity1795835600001 } from './migrations/1795835600001-drop-row-level-security';
import { CreateServiceRole1796000000000 } from './migrations/1796000000000-create-service-role';
import { AttachmentOwnerEntity } from './owners/attachment-owner.entity';

/** Everything this service keeps in its database; the migrations are the schema's source of truth. */
export const ATTACHMENTS_ENTITIES = [
  AttachmentEntity,
  AttachmentRevisionEntity,
  PendingUploadEntity,
  AttachmentOwnerEntity,
  ...MESSAGING_ENTITIES,
];
export const ATTACHMENTS_MIGRATIONS = [
  CreateAttachments1763900000100,
  EnableRowLevelSecurity1764500000000,
  // The outbox of this service's events and the processed-events record of its consumer (libs/messaging).
  ...MESSAGING_MIGRATIONS,
  WallByTenantViews1795835600000,
  DropRowLevelSecurity1795835600001,
  CreateServiceRole1796000000000,
  // The stored answers of keyed writes (Idempotency-Key, @erp/idempotency).
  CreateIdempotencyKeys1797000000000,
];
