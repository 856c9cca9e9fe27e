import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One history for every database. Migration 1766200000000 created the TRUNCATE trigger's function
 * as `customer_name_cells_clear()`; between commit 56c2d9e and this migration, the shared helper it
 * then imported made a database migrated afresh get `customers_name_cells_clear()` instead. Both
 * truncate the same table; this leaves every database with the original name. Idempotent: nothing
 * changes where the original is already in place.
 */
export class RestoreNameCellsClear1766300000000 implements MigrationInterface {
  name = 'RestoreNameCellsClear1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION customer_name_cells_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        TRUNCATE customer_name_cells;
        RETURN NULL;
      END $$`);
    await q.query(`DROP TRIGGER IF EXISTS customers_name_cells_truncate ON customers`);
    await q.query(`
      CREATE TRIGGER customers_name_cells_truncate AFTER TRUNCATE ON customers
      FOR EACH STATEMENT EXECUTE FUNCTION customer_name_cells_clear()`);
    await q.query(`DROP FUNCTION IF EXISTS customers_name_cells_clear()`);
  }

  async down(): Promise<void> {
    // Nothing to undo: 1766200000000 as it stands created exactly this.
  }
}
