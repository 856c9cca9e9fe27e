import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context of the change that added an event (W3C `traceparent`/`tracestate` as jsonb),
 * written only when tracing is on. Nullable and without a default: adding it rewrites nothing and
 * takes no long lock, so it is safe on a live outbox. Part of OUTBOX_MIGRATIONS, like the table.
 */
export class AddOutboxTraceContext1795300000000 implements MigrationInterface {
  name = 'AddOutboxTraceContext1795300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ADD COLUMN trace_context jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox DROP COLUMN trace_context`);
  }
}
