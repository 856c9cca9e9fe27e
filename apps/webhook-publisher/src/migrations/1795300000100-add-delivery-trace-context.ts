import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context (W3C `traceparent`/`tracestate`, jsonb) of the consumed event a delivery was
 * made for, written only when tracing is on; each attempt's span is its child. Nullable, no
 * default: nothing is rewritten and no long lock is taken.
 */
export class AddDeliveryTraceContext1795300000100 implements MigrationInterface {
  name = 'AddDeliveryTraceContext1795300000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN trace_context jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN trace_context`);
  }
}
