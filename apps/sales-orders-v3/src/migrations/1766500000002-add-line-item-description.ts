import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue item's description as an order line shows it (`inventory.description`), copied when
 * the line is written or its item changes, as the line keeps its price: a later change of the item
 * does not rewrite orders. Lines written before this migration have none (null, as they showed).
 */
export class AddLineItemDescription1766500000002 implements MigrationInterface {
  name = 'AddLineItemDescription1766500000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sales_order_lines ADD COLUMN item_description varchar(255)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sales_order_lines DROP COLUMN item_description`);
  }
}
