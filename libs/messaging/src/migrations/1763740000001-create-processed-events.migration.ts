import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The idempotent consumer's record (see ProcessedEventEntity). Every service that consumes
 * events lists this class in its own migrations. The primary key (group, event id) is what
 * makes a duplicate delivery a no-op.
 */
export class CreateProcessedEvents1763740000001 implements MigrationInterface {
  name = 'CreateProcessedEvents1763740000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE processed_events (
        consumer_group varchar(255) NOT NULL,
        event_id uuid NOT NULL,
        event_type varchar(100) NOT NULL,
        topic varchar(249) NOT NULL,
        partition integer NOT NULL,
        "offset" bigint NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT processed_events_pkey PRIMARY KEY (consumer_group, event_id)
      )`);
    await q.query(`CREATE INDEX processed_events_processed_at_idx ON processed_events (processed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE processed_events`);
  }
}
