import type { MigrationInterface, QueryRunner } from 'typeorm';
import { protectTablesByViewsV1 } from '@erp/database';

/** The tables this migration adds, both holding one company's rows behind the tenant wall. */
export const NAME_REGISTRATION_LIMIT_TABLES = ['customer_name_registrations', 'customer_name_retries'];

/**
 * The limits of name-count registration per company across replicas (they were per process, so
 * N replicas allowed N times as many registrations):
 *
 * - `customer_name_registrations`, one row per company: `claimed_by` / `claimed_until`, the
 *   registration under way (one per company at a time; the claim is a lease its holder renews, so a
 *   replica that dies mid-registration frees the company when it lapses), and `replaced_at`, when a
 *   registration last replaced a kept fragment (the next waits CUSTOMER_NAME_COUNT_REPLACE_INTERVAL_MS).
 * - `customer_name_retries`: a fragment that did not register is not tried again before `not_before`.
 *
 * Rows, not advisory locks: a claim spans several short transactions (a registration never holds a
 * transaction open while it waits for writers), and a session lock would stay on a server session
 * that a transaction-mode pooler hands to someone else.
 *
 * Only adds: the previous release, still running beside this one during a rolling upgrade, never
 * reads them and goes on registering with its per-process limits until it is replaced.
 */
export class CreateNameRegistrationLimits1766950000000 implements MigrationInterface {
  name = 'CreateNameRegistrationLimits1766950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE customer_name_registrations (
        company_id varchar(64) PRIMARY KEY,
        claimed_by uuid,
        claimed_until timestamptz,
        replaced_at timestamptz
      )`);
    await q.query(`
      CREATE TABLE customer_name_retries (
        company_id varchar(64) NOT NULL,
        fragment varchar(255) NOT NULL,
        not_before timestamptz NOT NULL,
        PRIMARY KEY (company_id, fragment)
      )`);
    // Behind the tenant wall like every table of the service's companies (1766700000000).
    await protectTablesByViewsV1(q, NAME_REGISTRATION_LIMIT_TABLES);
  }

  async down(q: QueryRunner): Promise<void> {
    // CASCADE: the tenant views over them.
    await q.query(`DROP TABLE customer_name_retries, customer_name_registrations CASCADE`);
  }
}
