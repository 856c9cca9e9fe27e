import { CreateIdempotencyKeys1797000000000 } from '@erp/idempotency';
import { MESSAGING_ENTITIES, MESSAGING_MIGRATIONS } from '@erp/messaging';
import {
  SupplierInvoiceAttachmentEntity,
  SupplierInvoiceEntity,
  SupplierInvoiceLineEntity,
  SupplierInvoiceNumberCounterEntity,
} from './supplier-invoices/supplier-invoice.entity';
import { CreateSupplierInvoices1763900000000 } from './migrations/1763900000000-create-supplier-invoices';
import { EnableRowLevelSecurity1764500000000 } from './migrations/1764500000000-enable-row-level-security';
import { CreateSupplierInvoiceBuckets1765300000000 } from './migrations/1765300000000-create-supplier-invoice-buckets';
import { CoverSupplierInvoiceListIndexes1765300000001 } from './migrations/1765300000001-cover-supplier-invoice-list-indexes';
import { CreateSupplierInvoiceBucketFunctions1766800000000 } from './migrations/1766800000000-create-supplier-invoice-bucket-functions';
import { WallByTenantViews1795835600000 } from './migrations/1795835600000-wall-by-tenant-views';
import { DropRowLevelSecurity1795835600001 } from './migrations/1795835600001-drop-row-level-security';
import { CreateServiceRole1796000000000 } from './migrations/1796000000000-create-service-role';

/** Everything this service keeps in its database; the migrations are the schema's source of truth. */
export const SUPPLIER_INVOICES_ENTITIES = [
  SupplierInvoiceEntity,
  SupplierInvoiceLineEntity,
  SupplierInvoiceNumberCounterEntity,
  SupplierInvoiceAttachmentEntity,
  ...MESSAGING_ENTITIES,
];
export const SUPPLIER_INVOICES_MIGRATIONS = [
  CreateSupplierInvoices1763900000000,
  EnableRowLevelSecurity1764500000000,
  CreateSupplierInvoiceBuckets1765300000000,
  CoverSupplierInvoiceListIndexes1765300000001,
  CreateSupplierInvoiceBucketFunctions1766800000000,
  // The outbox of this service's events and the processed-events record of its consumer (libs/messaging).
  ...MESSAGING_MIGRATIONS,
  WallByTenantViews1795835600000,
  DropRowLevelSecurity1795835600001,
  CreateServiceRole1796000000000,
  // The stored answers of keyed writes (Idempotency-Key, @erp/idempotency).
  CreateIdempotencyKeys1797000000000,
];
