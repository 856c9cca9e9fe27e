import type { MigrationInterface, QueryRunner } from 'typeorm';
import { protectTablesByViewsV1 } from '@erp/database';

/**
 * The stored answers of keyed writes (libs/idempotency). Every service that takes writes lists
 * this class in its own migrations, so the table lives in the service's own database. Expand: a
 * new table the previous release never reads. Keyed by company, caller, operation and key, so two
 * companies or two callers with one key never meet; behind the tenant wall like every company
 * table (its view); `created_at` serves the retention sweep.
 */
export class CreateIdempotencyKeys1797000000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1797000000000';

  async up(q: QueryRunner): Promise<void> {
    // The caller, operation and key as one SHA-256 (scope_hash): a 32-byte key, not three strings of
    // up to 300 bytes, in the one btree every keyed write adds to; the sweep's index is a BRIN, as
    // rows arrive in created_at order; the answer's body as text (a write answers JSON or nothing),
    // which the driver sends as it is where bytea would go as hex (bench:idempotency: the insert is
    // most of a key's cost).
    await q.query(`
      CREATE TABLE idempotency_keys (
        company_id varchar(64) NOT NULL,
        scope_hash bytea NOT NULL,
        fingerprint varchar(64) NOT NULL,
        status smallint NOT NULL,
        headers text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT idempotency_keys_pkey PRIMARY KEY (company_id, scope_hash)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys USING brin (created_at)`);
    // Every service that takes writes is behind the tenant views (since release 1.0.0).
    await protectTablesByViewsV1(q, ['idempotency_keys']);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys CASCADE`);
  }
}
