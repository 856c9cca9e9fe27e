import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropTenantPoliciesV1, restoreTenantPoliciesV1, type TenantViewTableV1 } from '@erp/database';

/** The company tables 1764500000000 put behind policies. */
const TABLES: TenantViewTableV1[] = [
  'webhook_subscriptions',
  'webhook_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
];

/**
 * The tenant views (1795835600000) become the only way in (CONTRACT step: docs/migrations.md): the
 * request role loses its privileges on the tables and the policies go. The previous release needs
 * neither (its requests read through the views since the expand step); a revoke still waits until
 * no replica of it is left, as every revoke does.
 */
export class DropRowLevelSecurity1795835600001 implements MigrationInterface {
  name = 'DropRowLevelSecurity1795835600001';
  readonly phase = 'contract';

  up(q: QueryRunner): Promise<void> {
    return dropTenantPoliciesV1(q, TABLES);
  }

  down(q: QueryRunner): Promise<void> {
    return restoreTenantPoliciesV1(q, TABLES);
  }
}
