import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the order's read views (`.../commissions`, `.../discounts`, `.../tax`, `.../rotrut`,
 * `.../shipment`) are computed from.
 *
 * - The header keeps the salesperson and their commission percent, and the order-level parts as
 *   jsonb, each replaced whole by a write: document discounts, taxes (one entry per tax id, applied
 *   to the lines of one tax category), the ROT/RUT deduction and the shipments. Their decimals are
 *   stored as decimal text and read back as `numeric`, so nothing passes through a float.
 * - A line keeps its tax category and whether it earns commission (the published document's line
 *   `taxCategoryId` and `commissionable`).
 * Amounts of the views are computed when read (they follow the lines), never stored.
 */
export class OrderViews1765300000000 implements MigrationInterface {
  name = 'OrderViews1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sales_orders
        ADD COLUMN sales_person_id varchar(15),
        ADD COLUMN commission_percent numeric(7,4),
        ADD COLUMN discounts jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN taxes jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN rot_rut jsonb,
        ADD COLUMN shipments jsonb NOT NULL DEFAULT '[]',
        ADD CONSTRAINT sales_orders_commission_percent_check CHECK (commission_percent >= 0 AND commission_percent <= 100)`);
    await q.query(`
      ALTER TABLE sales_order_lines
        ADD COLUMN tax_category_id varchar(10),
        ADD COLUMN commissionable boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sales_order_lines DROP COLUMN commissionable, DROP COLUMN tax_category_id`);
    await q.query(`
      ALTER TABLE sales_orders
        DROP CONSTRAINT sales_orders_commission_percent_check,
        DROP COLUMN shipments, DROP COLUMN rot_rut, DROP COLUMN taxes, DROP COLUMN discounts,
        DROP COLUMN commission_percent, DROP COLUMN sales_person_id`);
  }
}
