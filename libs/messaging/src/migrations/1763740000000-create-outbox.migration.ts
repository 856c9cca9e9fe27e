import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The transactional outbox (see OutboxMessageEntity). Every service that publishes events lists
 * this class in its own migrations, so the table lives in the service's own database.
 * The partial index keeps finding the unpublished rows cheap however many published rows are
 * kept; the second one serves the retention clean-up.
 */
export class CreateOutbox1763740000000 implements MigrationInterface {
  name = 'CreateOutbox1763740000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        id uuid NOT NULL,
        sequence bigint GENERATED ALWAYS AS IDENTITY NOT NULL,
        topic varchar(249) NOT NULL,
        message_key varchar(300) NOT NULL,
        event_type varchar(100) NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        CONSTRAINT outbox_pkey PRIMARY KEY (id),
        CONSTRAINT outbox_sequence_key UNIQUE (sequence)
      )`);
    await q.query(`CREATE INDEX outbox_unpublished_idx ON outbox (sequence) WHERE published_at IS NULL`);
    await q.query(`CREATE INDEX outbox_published_at_idx ON outbox (published_at) WHERE published_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE outbox`);
  }
}
