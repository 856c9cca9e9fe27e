import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableServiceRoleV1, enableServiceRoleV1 } from '@erp/database';

/**
 * Two database logins (docs/platform-teams.md, "Database logins"): background work that spans
 * companies runs as `<db>_service`, which reads and writes the tables and owns none, instead of as
 * the login that owns them. Expand: the previous release runs as its login and never sets it.
 */
export class CreateServiceRole1796000000000 implements MigrationInterface {
  name = 'CreateServiceRole1796000000000';

  up(q: QueryRunner): Promise<void> {
    return enableServiceRoleV1(q);
  }

  down(q: QueryRunner): Promise<void> {
    return disableServiceRoleV1(q);
  }
}
