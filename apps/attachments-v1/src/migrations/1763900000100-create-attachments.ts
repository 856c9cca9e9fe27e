import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attachment metadata (the bytes live in object storage under `storage_key`), the objects that may
 * own attachments (learned from the owners' created events), and uploads whose bytes are being or
 * were written but whose metadata has not committed (the orphan sweeper deletes those bytes).
 */
export class CreateAttachments1763900000100 implements MigrationInterface {
  name = 'CreateAttachments1763900000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE attachment_owners (
        company_id varchar(64) NOT NULL,
        endpoint varchar(30) NOT NULL,
        object_id varchar(64) NOT NULL,
        known_since timestamptz NOT NULL,
        CONSTRAINT attachment_owners_pkey PRIMARY KEY (company_id, endpoint, object_id)
      )`);
    await q.query(`
      CREATE TABLE attachments (
        id uuid NOT NULL,
        company_id varchar(64) NOT NULL,
        owner_endpoint varchar(30) NOT NULL,
        owner_id varchar(64) NOT NULL,
        name varchar(255) NOT NULL,
        latest_revision integer NOT NULL,
        created_at timestamptz NOT NULL,
        last_modified_at timestamptz NOT NULL,
        CONSTRAINT attachments_pkey PRIMARY KEY (id)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX attachments_owner_name_key ON attachments (company_id, owner_endpoint, owner_id, name)`,
    );
    await q.query(`
      CREATE TABLE attachment_revisions (
        attachment_id uuid NOT NULL,
        revision integer NOT NULL,
        storage_key varchar(200) NOT NULL,
        content_type varchar(255) NOT NULL,
        size bigint NOT NULL,
        sha256 char(64) NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT attachment_revisions_pkey PRIMARY KEY (attachment_id, revision),
        CONSTRAINT attachment_revisions_attachment_fkey FOREIGN KEY (attachment_id) REFERENCES attachments (id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE UNIQUE INDEX attachment_revisions_storage_key_key ON attachment_revisions (storage_key)`);
    await q.query(`
      CREATE TABLE pending_uploads (
        storage_key varchar(200) NOT NULL,
        company_id varchar(64) NOT NULL,
        started_at timestamptz NOT NULL,
        CONSTRAINT pending_uploads_pkey PRIMARY KEY (storage_key)
      )`);
    await q.query(`CREATE INDEX pending_uploads_started_at_idx ON pending_uploads (started_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pending_uploads`);
    await q.query(`DROP TABLE attachment_revisions`);
    await q.query(`DROP TABLE attachments`);
    await q.query(`DROP TABLE attachment_owners`);
  }
}
