import { CreateIdempotencyKeys1797000000000 } from '@erp/idempotency';
import { OUTBOX_ENTITIES, OUTBOX_MIGRATIONS } from '@erp/messaging';
import { CustomerEntity, CustomerNumberCounterEntity } from './customers/customer.entity';
import { CreateCustomers1763700000000 } from './migrations/1763700000000-create-customers';
import { CreateCustomerListBuckets1763800000000 } from './migrations/1763800000000-create-customer-list-buckets';
import { CreateCustomerTimeBuckets1765200000000 } from './migrations/1765200000000-create-customer-time-buckets';
import { CoverCustomerListIndexes1765200000001 } from './migrations/1765200000001-cover-customer-list-indexes';
import { IndexTimeBucketCells1765500000000 } from './migrations/1765500000000-index-time-bucket-cells';
import { CreateCustomerNameCounts1766200000000 } from './migrations/1766200000000-create-customer-name-counts';
import { CoverNameInListIndexes1766200000001 } from './migrations/1766200000001-cover-name-in-list-indexes';
import { RestoreNameCellsClear1766300000000 } from './migrations/1766300000000-restore-name-cells-clear';
import { RegisterNameFragmentsWithoutBlocking1766400000000 } from './migrations/1766400000000-register-name-fragments-without-blocking';
import { EnableTenantViews1766700000000 } from './migrations/1766700000000-enable-tenant-views';
import { CreateCustomerBucketFunctions1766800000000 } from './migrations/1766800000000-create-customer-bucket-functions';
import { CreateNameRegistrationLimits1766950000000 } from './migrations/1766950000000-create-name-registration-limits';
import { CreateServiceRole1796000000000 } from './migrations/1796000000000-create-service-role';

/** Everything this service keeps in its database; the migrations are the schema's source of truth. */
export const CUSTOMERS_ENTITIES = [CustomerEntity, CustomerNumberCounterEntity, ...OUTBOX_ENTITIES];
export const CUSTOMERS_MIGRATIONS = [
  CreateCustomers1763700000000,
  CreateCustomerListBuckets1763800000000,
  CreateCustomerTimeBuckets1765200000000,
  CoverCustomerListIndexes1765200000001,
  IndexTimeBucketCells1765500000000,
  CreateCustomerNameCounts1766200000000,
  CoverNameInListIndexes1766200000001,
  RestoreNameCellsClear1766300000000,
  RegisterNameFragmentsWithoutBlocking1766400000000,
  EnableTenantViews1766700000000,
  CreateCustomerBucketFunctions1766800000000,
  CreateNameRegistrationLimits1766950000000,
  // The transactional outbox of this service's events (libs/messaging).
  ...OUTBOX_MIGRATIONS,
  CreateServiceRole1796000000000,
  // The stored answers of keyed writes (Idempotency-Key, @erp/idempotency).
  CreateIdempotencyKeys1797000000000,
];
