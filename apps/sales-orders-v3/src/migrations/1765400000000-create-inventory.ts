import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inventory catalogue of each company (`/api/v3/Inventory`), owned by this service because order
 * lines reference its items and are checked against them in the order's own transaction.
 *
 * - `inventory_items`: one row per item. `internal_id` is the document's int32 `internalId` and the
 *   list's total order. `attributes` is the item's attribute map (`{ "WEBSHOP": "1" }`), searched by
 *   `attributeFilter` through its GIN index. `availability` is the warehouse summary as the API shows
 *   it (warehouses with their locations, each with its own `lastModified`), written whole by PUT.
 *   `availability_modified_at` is the latest `lastModified` in it (the item's write time when it has
 *   none): the index `modifiedSince` starts from.
 * - `inventory_warehouses` / `inventory_locations`: the company's warehouse and location codes and the
 *   int32 internal ids the document shows for them (`internalWarehouseId`, `internalLocationId`),
 *   assigned once per code and never reused.
 * - No foreign key from order lines: orders written before this catalogue existed keep their item
 *   codes; new lines are checked by the order use cases (an item is never deleted).
 */
export class CreateInventory1765400000000 implements MigrationInterface {
  name = 'CreateInventory1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE inventory_items (
        internal_id integer GENERATED ALWAYS AS IDENTITY,
        company_id varchar(64) NOT NULL,
        inventory_id varchar(30) NOT NULL,
        description varchar(255),
        base_unit varchar(10),
        attributes jsonb NOT NULL,
        availability jsonb NOT NULL,
        availability_modified_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        last_modified_at timestamptz NOT NULL,
        CONSTRAINT inventory_items_pkey PRIMARY KEY (company_id, inventory_id)
      )`);
    await q.query(`CREATE UNIQUE INDEX inventory_items_company_internal_key ON inventory_items (company_id, internal_id)`);
    await q.query(`CREATE INDEX inventory_items_company_modified_idx ON inventory_items (company_id, availability_modified_at)`);
    await q.query(`CREATE INDEX inventory_items_attributes_idx ON inventory_items USING gin (company_id, attributes jsonb_path_ops)`);
    await q.query(`
      CREATE TABLE inventory_warehouses (
        internal_id integer GENERATED ALWAYS AS IDENTITY,
        company_id varchar(64) NOT NULL,
        warehouse_id varchar(30) NOT NULL,
        CONSTRAINT inventory_warehouses_pkey PRIMARY KEY (company_id, warehouse_id)
      )`);
    await q.query(`
      CREATE TABLE inventory_locations (
        internal_id integer GENERATED ALWAYS AS IDENTITY,
        company_id varchar(64) NOT NULL,
        warehouse_id varchar(30) NOT NULL,
        location_id varchar(30) NOT NULL,
        CONSTRAINT inventory_locations_pkey PRIMARY KEY (company_id, warehouse_id, location_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE inventory_locations`);
    await q.query(`DROP TABLE inventory_warehouses`);
    await q.query(`DROP TABLE inventory_items`);
  }
}
