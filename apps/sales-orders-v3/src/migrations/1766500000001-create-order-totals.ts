import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The order's totals as the v3 document defines them (SalesOrderTotalsDto), kept on the header so
 * lists never aggregate lines, and what they need:
 *
 * - freight (the document's `freight { cost, premiumAmount, taxCategoryId }`): its inputs;
 * - the totals computed with the lines by every write that changes them: the applied document
 *   discounts, the taxable, tax-exempt and tax totals, and the order total (what the customer pays);
 * - base currency: `company_currencies` holds a company's base currency, `exchange_rates` the rate of
 *   each other currency from a day on (1 unit of the currency = `rate` units of the base currency).
 *   An order keeps the base currency and the rate in force on its date, as of its last write that
 *   changed its totals, so its base-currency amounts do not move when rates are added later.
 * Existing orders: their document discounts and taxes were only in the read views; the new columns
 * are filled for them by the next write of the order (until then the totals read as before: no
 * document discount, no tax, no freight, rate 1).
 */
export class CreateOrderTotals1766500000001 implements MigrationInterface {
  name = 'CreateOrderTotals1766500000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sales_orders
        ADD COLUMN freight_cost numeric(38,2) NOT NULL DEFAULT 0,
        ADD COLUMN freight_premium numeric(38,2) NOT NULL DEFAULT 0,
        ADD COLUMN freight_tax_category_id varchar(10),
        ADD COLUMN document_discount_total numeric(38,2) NOT NULL DEFAULT 0,
        ADD COLUMN taxable_total numeric(38,2) NOT NULL DEFAULT 0,
        ADD COLUMN tax_exempt_total numeric(38,2) NOT NULL DEFAULT 0,
        ADD COLUMN tax_total numeric(38,2) NOT NULL DEFAULT 0,
        ADD COLUMN grand_total numeric(38,2),
        ADD COLUMN base_currency_id varchar(3),
        ADD COLUMN exchange_rate numeric(18,8) NOT NULL DEFAULT 1,
        ADD CONSTRAINT sales_orders_freight_check CHECK (freight_cost >= 0 AND freight_premium >= 0),
        ADD CONSTRAINT sales_orders_exchange_rate_check CHECK (exchange_rate > 0)`);
    await q.query(`
      CREATE TABLE company_currencies (
        company_id varchar(64) NOT NULL,
        base_currency_id varchar(3) NOT NULL,
        last_modified_at timestamptz NOT NULL,
        CONSTRAINT company_currencies_pkey PRIMARY KEY (company_id)
      )`);
    await q.query(`
      CREATE TABLE exchange_rates (
        company_id varchar(64) NOT NULL,
        currency_id varchar(3) NOT NULL,
        effective_date date NOT NULL,
        rate numeric(18,8) NOT NULL,
        CONSTRAINT exchange_rates_pkey PRIMARY KEY (company_id, currency_id, effective_date),
        CONSTRAINT exchange_rates_rate_check CHECK (rate > 0)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE exchange_rates`);
    await q.query(`DROP TABLE company_currencies`);
    await q.query(`
      ALTER TABLE sales_orders
        DROP CONSTRAINT sales_orders_exchange_rate_check, DROP CONSTRAINT sales_orders_freight_check,
        DROP COLUMN exchange_rate, DROP COLUMN base_currency_id, DROP COLUMN grand_total, DROP COLUMN tax_total,
        DROP COLUMN tax_exempt_total, DROP COLUMN taxable_total, DROP COLUMN document_discount_total,
        DROP COLUMN freight_tax_category_id, DROP COLUMN freight_premium, DROP COLUMN freight_cost`);
  }
}
