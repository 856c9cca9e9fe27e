import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customers of each company. `internal_id` gives the stable, total order of v1 lists (new rows go
 * to the end, so pages already read never shift). `version` comes from one sequence, so an ETag
 * never repeats for a different state. Every index leads with company_id: every query is scoped.
 */
export class CreateCustomers1763700000000 implements MigrationInterface {
  name = 'CreateCustomers1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE SEQUENCE row_version_seq`);
    await q.query(`
      CREATE TABLE customers (
        internal_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        company_id varchar(64) NOT NULL,
        number varchar(30) NOT NULL,
        name varchar(255) NOT NULL,
        status varchar(20) NOT NULL,
        main_address jsonb,
        main_contact jsonb,
        corporate_id varchar(50),
        vat_registration_id varchar(50),
        currency_id varchar(3),
        credit_terms jsonb,
        created_at timestamptz NOT NULL,
        last_modified_at timestamptz NOT NULL,
        version bigint NOT NULL DEFAULT nextval('row_version_seq'),
        CONSTRAINT customers_status_check CHECK (status IN ('Active', 'OnHold', 'CreditHold', 'Inactive', 'OneTime'))
      )`);
    await q.query(`CREATE UNIQUE INDEX customers_company_number_key ON customers (company_id, number)`);
    await q.query(`CREATE INDEX customers_company_order_idx ON customers (company_id, internal_id)`);
    await q.query(`CREATE INDEX customers_company_status_idx ON customers (company_id, status, internal_id)`);
    await q.query(`CREATE INDEX customers_company_modified_idx ON customers (company_id, last_modified_at)`);
    await q.query(`CREATE INDEX customers_company_created_idx ON customers (company_id, created_at)`);
    await q.query(`CREATE INDEX customers_company_corporate_idx ON customers (company_id, corporate_id)`);
    await q.query(`CREATE INDEX customers_company_vat_idx ON customers (company_id, vat_registration_id)`);
    await q.query(`CREATE INDEX customers_name_trgm_idx ON customers USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`
      CREATE TABLE customer_number_counters (
        company_id varchar(64) PRIMARY KEY,
        last_value bigint NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE customer_number_counters`);
    await q.query(`DROP TABLE customers`);
    await q.query(`DROP SEQUENCE row_version_seq`);
  }
}
