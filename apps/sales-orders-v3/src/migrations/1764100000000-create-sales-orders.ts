import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sales orders, their lines, per-company order numbering and the customer snapshot.
 *
 * - `version` comes from one sequence on every write (and on re-creation), so an ETag never
 *   repeats for a different state.
 * - Money and quantities are `numeric`: exact decimals. `extended_price` is computed by SQL on
 *   every write and a CHECK makes the rule part of the schema; the order's totals are kept on the
 *   header (recomputed in the same transaction as any line change) so lists never aggregate lines.
 * - Every index leads with company_id: every query is scoped by the company. The trigram index
 *   serves `filter` (substring over order id, customer order and customer name; chr(1) separates
 *   the fields so a match never spans two of them); btree_gin lets it lead with company_id too.
 * - Lines reference their order by (company_id, internal_id), so a line can never belong to an
 *   order of another company, and go with it when it is deleted.
 */
export class CreateSalesOrders1764100000000 implements MigrationInterface {
  name = 'CreateSalesOrders1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await q.query(`CREATE SEQUENCE sales_order_version_seq`);
    await q.query(`
      CREATE TABLE sales_orders (
        internal_id bigint GENERATED ALWAYS AS IDENTITY,
        company_id varchar(64) NOT NULL,
        order_type varchar(2) NOT NULL,
        order_id varchar(15) NOT NULL,
        status varchar(20) NOT NULL,
        order_date timestamptz NOT NULL,
        request_on timestamptz,
        cancel_by timestamptz,
        description varchar(255),
        note varchar(2048),
        currency_id varchar(3),
        customer_id varchar(30) NOT NULL,
        customer_name varchar(255) NOT NULL,
        customer_order varchar(40),
        customer_ref_no varchar(40),
        billing jsonb NOT NULL,
        shipping jsonb NOT NULL,
        payment_settings jsonb NOT NULL,
        attachments jsonb NOT NULL,
        line_total numeric(38,2) NOT NULL DEFAULT 0,
        discount_total numeric(38,2) NOT NULL DEFAULT 0,
        order_total numeric(38,2) NOT NULL DEFAULT 0,
        order_qty numeric(38,6) NOT NULL DEFAULT 0,
        last_line_id integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        last_modified_at timestamptz NOT NULL,
        version bigint NOT NULL DEFAULT nextval('sales_order_version_seq'),
        CONSTRAINT sales_orders_pkey PRIMARY KEY (internal_id),
        CONSTRAINT sales_orders_status_check CHECK (status IN ('Open', 'Hold', 'BackOrder', 'Completed', 'Cancelled')),
        CONSTRAINT sales_orders_type_check CHECK (order_type IN ('SO', 'QT', 'IN', 'CM'))
      )`);
    await q.query(`CREATE UNIQUE INDEX sales_orders_company_type_order_key ON sales_orders (company_id, order_type, order_id)`);
    await q.query(`CREATE UNIQUE INDEX sales_orders_company_internal_key ON sales_orders (company_id, internal_id)`);
    await q.query(`CREATE INDEX sales_orders_company_created_idx ON sales_orders (company_id, created_at, internal_id)`);
    await q.query(`CREATE INDEX sales_orders_company_modified_idx ON sales_orders (company_id, last_modified_at, internal_id)`);
    await q.query(`CREATE INDEX sales_orders_company_order_id_idx ON sales_orders (company_id, order_id, order_type)`);
    await q.query(`CREATE INDEX sales_orders_company_type_created_idx ON sales_orders (company_id, order_type, created_at, internal_id)`);
    await q.query(`CREATE INDEX sales_orders_company_customer_idx ON sales_orders (company_id, customer_id, created_at, internal_id)`);
    await q.query(`CREATE INDEX sales_orders_company_status_idx ON sales_orders (company_id, status, created_at, internal_id)`);
    await q.query(`
      CREATE INDEX sales_orders_search_trgm_idx ON sales_orders USING gin (
        company_id,
        lower(order_id || chr(1) || coalesce(customer_order, '') || chr(1) || customer_name) gin_trgm_ops
      )`);

    await q.query(`
      CREATE TABLE sales_order_lines (
        company_id varchar(64) NOT NULL,
        order_internal_id bigint NOT NULL,
        line_id integer NOT NULL,
        sort_order integer NOT NULL,
        inventory_id varchar(30) NOT NULL,
        description varchar(256),
        quantity numeric(18,6) NOT NULL,
        unit_price numeric(18,6) NOT NULL,
        discount_percent numeric(7,4) NOT NULL DEFAULT 0,
        extended_price numeric(38,2) NOT NULL,
        unit_of_measure varchar(6),
        warehouse_id varchar(30),
        request_date timestamptz,
        note varchar(2048),
        CONSTRAINT sales_order_lines_pkey PRIMARY KEY (company_id, order_internal_id, line_id),
        CONSTRAINT sales_order_lines_order_fkey FOREIGN KEY (company_id, order_internal_id)
          REFERENCES sales_orders (company_id, internal_id) ON DELETE CASCADE,
        CONSTRAINT sales_order_lines_quantity_check CHECK (quantity > 0),
        CONSTRAINT sales_order_lines_unit_price_check CHECK (unit_price >= 0),
        CONSTRAINT sales_order_lines_discount_check CHECK (discount_percent >= 0 AND discount_percent <= 100),
        CONSTRAINT sales_order_lines_extended_price_check
          CHECK (extended_price = round(quantity * unit_price * (1 - discount_percent / 100), 2))
      )`);
    await q.query(`CREATE INDEX sales_order_lines_sort_idx ON sales_order_lines (company_id, order_internal_id, sort_order, line_id)`);

    await q.query(`
      CREATE TABLE sales_order_counters (
        company_id varchar(64) NOT NULL,
        order_type varchar(2) NOT NULL,
        last_value bigint NOT NULL,
        CONSTRAINT sales_order_counters_pkey PRIMARY KEY (company_id, order_type)
      )`);

    await q.query(`
      CREATE TABLE customer_snapshots (
        company_id varchar(64) NOT NULL,
        customer_id varchar(30) NOT NULL,
        name varchar(255) NOT NULL,
        status varchar(20) NOT NULL,
        currency_id varchar(3),
        source_version bigint NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT customer_snapshots_pkey PRIMARY KEY (company_id, customer_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE customer_snapshots`);
    await q.query(`DROP TABLE sales_order_counters`);
    await q.query(`DROP TABLE sales_order_lines`);
    await q.query(`DROP TABLE sales_orders`);
    await q.query(`DROP SEQUENCE sales_order_version_seq`);
  }
}
