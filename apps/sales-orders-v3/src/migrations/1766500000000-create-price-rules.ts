import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Price rules: what decides an order line's unit price and line discount when the client leaves them
 * to the ERP (the v3 document's `hasManualPrice` / `hasManualDiscount` false, or no price sent).
 *
 * - `inventory_item_prices`: an item's base price per currency (`prices` of PUT /api/v3/Inventory/{id}).
 * - `price_classes` / `customer_price_classes`: customer price classes; a customer is in at most one.
 * - `price_lists` / `price_list_entries`: price lists in one currency; each entry prices an item for one
 *   customer, one price class or everyone, from a minimum quantity (quantity breaks), optionally with a
 *   line discount, between optional effective dates (inclusive, calendar days in UTC).
 * - `sales_order_lines.has_manual_price` / `has_manual_discount`: whether the line keeps its own price /
 *   discount or takes the rules'. Every line written before this migration had its price and discount
 *   sent by the client, so both default to true.
 */
export class CreatePriceRules1766500000000 implements MigrationInterface {
  name = 'CreatePriceRules1766500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sales_order_lines
        ADD COLUMN has_manual_price boolean NOT NULL DEFAULT true,
        ADD COLUMN has_manual_discount boolean NOT NULL DEFAULT true`);
    await q.query(`
      CREATE TABLE inventory_item_prices (
        company_id varchar(64) NOT NULL,
        inventory_id varchar(30) NOT NULL,
        currency_id varchar(3) NOT NULL,
        unit_price numeric(18,6) NOT NULL,
        CONSTRAINT inventory_item_prices_pkey PRIMARY KEY (company_id, inventory_id, currency_id),
        CONSTRAINT inventory_item_prices_item_fkey FOREIGN KEY (company_id, inventory_id)
          REFERENCES inventory_items (company_id, inventory_id) ON DELETE CASCADE,
        CONSTRAINT inventory_item_prices_unit_price_check CHECK (unit_price >= 0)
      )`);
    await q.query(`
      CREATE TABLE price_classes (
        company_id varchar(64) NOT NULL,
        price_class_id varchar(10) NOT NULL,
        description varchar(255),
        last_modified_at timestamptz NOT NULL,
        CONSTRAINT price_classes_pkey PRIMARY KEY (company_id, price_class_id)
      )`);
    await q.query(`
      CREATE TABLE customer_price_classes (
        company_id varchar(64) NOT NULL,
        customer_id varchar(30) NOT NULL,
        price_class_id varchar(10) NOT NULL,
        CONSTRAINT customer_price_classes_pkey PRIMARY KEY (company_id, customer_id),
        CONSTRAINT customer_price_classes_class_fkey FOREIGN KEY (company_id, price_class_id)
          REFERENCES price_classes (company_id, price_class_id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX customer_price_classes_class_idx ON customer_price_classes (company_id, price_class_id)`);
    await q.query(`
      CREATE TABLE price_lists (
        company_id varchar(64) NOT NULL,
        price_list_id varchar(30) NOT NULL,
        description varchar(255),
        currency_id varchar(3) NOT NULL,
        last_modified_at timestamptz NOT NULL,
        CONSTRAINT price_lists_pkey PRIMARY KEY (company_id, price_list_id)
      )`);
    await q.query(`
      CREATE TABLE price_list_entries (
        company_id varchar(64) NOT NULL,
        price_list_id varchar(30) NOT NULL,
        entry_no integer NOT NULL,
        inventory_id varchar(30) NOT NULL,
        customer_id varchar(30),
        price_class_id varchar(10),
        min_quantity numeric(18,6) NOT NULL DEFAULT 0,
        unit_price numeric(18,6) NOT NULL,
        discount_percent numeric(7,4),
        effective_from date,
        effective_to date,
        CONSTRAINT price_list_entries_pkey PRIMARY KEY (company_id, price_list_id, entry_no),
        CONSTRAINT price_list_entries_list_fkey FOREIGN KEY (company_id, price_list_id)
          REFERENCES price_lists (company_id, price_list_id) ON DELETE CASCADE,
        CONSTRAINT price_list_entries_class_fkey FOREIGN KEY (company_id, price_class_id)
          REFERENCES price_classes (company_id, price_class_id),
        CONSTRAINT price_list_entries_target_check CHECK (customer_id IS NULL OR price_class_id IS NULL),
        CONSTRAINT price_list_entries_unit_price_check CHECK (unit_price >= 0),
        CONSTRAINT price_list_entries_min_quantity_check CHECK (min_quantity >= 0),
        CONSTRAINT price_list_entries_discount_check CHECK (discount_percent >= 0 AND discount_percent <= 100),
        CONSTRAINT price_list_entries_dates_check CHECK (effective_to IS NULL OR effective_from IS NULL OR effective_to >= effective_from)
      )`);
    await q.query(`CREATE INDEX price_list_entries_item_idx ON price_list_entries (company_id, inventory_id)`);
    await q.query(`CREATE INDEX price_list_entries_class_idx ON price_list_entries (company_id, price_class_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE price_list_entries`);
    await q.query(`DROP TABLE price_lists`);
    await q.query(`DROP TABLE customer_price_classes`);
    await q.query(`DROP TABLE price_classes`);
    await q.query(`DROP TABLE inventory_item_prices`);
    await q.query(`ALTER TABLE sales_order_lines DROP COLUMN has_manual_discount, DROP COLUMN has_manual_price`);
  }
}
