import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableTenantIsolationV1, enableTenantIsolationV1, type TenantTableV1 } from '@erp/database';

/** Every table holding one company's data; revisions belong to their attachment's company. */
export const ATTACHMENTS_TENANT_TABLES: TenantTableV1[] = [
  'attachment_owners',
  'attachments',
  { table: 'attachment_revisions', parent: { table: 'attachments', column: 'attachment_id', parentColumn: 'id' } },
  'pending_uploads',
];

/**
 * Defence in depth: request traffic runs as `<db>_app` limited by row-level security to the
 * request's company, so a query that forgets `company_id` still cannot reach another company's
 * rows (libs/database, RELIABILITY.md "Defence in depth"). The orphan sweeper works across
 * companies as the service itself.
 */
export class EnableRowLevelSecurity1764500000000 implements MigrationInterface {
  name = 'EnableRowLevelSecurity1764500000000';

  up(q: QueryRunner): Promise<void> {
    return enableTenantIsolationV1(q, ATTACHMENTS_TENANT_TABLES);
  }

  down(q: QueryRunner): Promise<void> {
    return disableTenantIsolationV1(q, ATTACHMENTS_TENANT_TABLES);
  }
}
