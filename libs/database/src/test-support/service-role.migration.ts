import type { MigrationInterface, QueryRunner } from 'typeorm';
import { disableServiceRoleV1, enableServiceRoleV1 } from '../migrations/history/service-role.v1';

/** The service role of a test database, after the test's own tables and wall (as a service's migration 1796000000000). */
export class ServiceRole1700000000900 implements MigrationInterface {
  name = 'ServiceRole1700000000900';

  up(q: QueryRunner): Promise<void> {
    return enableServiceRoleV1(q);
  }

  down(q: QueryRunner): Promise<void> {
    return disableServiceRoleV1(q);
  }
}
