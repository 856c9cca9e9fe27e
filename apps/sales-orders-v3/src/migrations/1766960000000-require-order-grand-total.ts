import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every order has its total in `grand_total` (CONTRACT step: docs/migrations.md).
 *
 * `grand_total` came with 1766500000001, empty on the orders written before it; the code reads
 * `coalesce(grand_total, order_total)`. Release 1.0.0 inserts an order with `grand_total` NULL and
 * sets it in the same transaction, so this constraint would fail its every new order: it runs only
 * once no replica of 1.0.0 is left (the contract step). From then on the value can be trusted.
 *
 * Without a lock on the whole table for longer than a moment:
 * - outside a transaction (`transaction = false`), the empty totals are filled in batches of
 *   1,000 rows, each its own statement and commit, so no writer waits behind more than one batch
 *   (an old order's total was its lines' net: `order_total`, it had no freight, tax or document
 *   discount then). 1,000 rather than 5,000: a batch rewrites every index of its rows and runs the
 *   list-cell triggers, and at 5,000 a write to one of them waited up to 4 s (`npm run
 *   bench:migrations`, docs/benchmark-history/2026-11-28-migrations-under-load.md);
 * - `CHECK ... NOT VALID` takes its lock only to add the constraint (new rows are checked from then
 *   on); `VALIDATE CONSTRAINT` then scans the table under SHARE UPDATE EXCLUSIVE, which lets reads
 *   and writes go on. A `NOT NULL` column would scan under ACCESS EXCLUSIVE instead.
 * Each statement may be retried (the runner's lock timeout), so each is written to be run again.
 */
export class RequireOrderGrandTotal1766960000000 implements MigrationInterface {
  name = 'RequireOrderGrandTotal1766960000000';
  readonly phase = 'contract';
  readonly transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (;;) {
      // A SELECT around the UPDATE: TypeORM answers an UPDATE with [rows, count], a SELECT with its rows.
      const [batch] = (await q.query(
        `WITH batch AS (SELECT internal_id FROM sales_orders WHERE grand_total IS NULL LIMIT 1000 FOR UPDATE),
              filled AS (UPDATE sales_orders o SET grand_total = o.order_total FROM batch WHERE o.internal_id = batch.internal_id RETURNING 1)
         SELECT count(*)::int AS filled FROM filled`,
      )) as Array<{ filled: number }>;
      if (!batch || batch.filled === 0) break;
    }
    const added = (await q.query(`SELECT 1 FROM pg_constraint WHERE conname = 'sales_orders_grand_total_check'`)) as unknown[];
    if (added.length === 0) {
      await q.query(`ALTER TABLE sales_orders ADD CONSTRAINT sales_orders_grand_total_check CHECK (grand_total IS NOT NULL) NOT VALID`);
    }
    await q.query(`ALTER TABLE sales_orders VALIDATE CONSTRAINT sales_orders_grand_total_check`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sales_orders DROP CONSTRAINT IF EXISTS sales_orders_grand_total_check`);
  }
}
