import type { MigrationInterface, QueryRunner } from 'typeorm';
import { protectTablesByViewsV1 } from '@erp/database';

/** The price rules' and the exchange rates' tables (1766500000000, 1766500000001), each one company's. */
export const PRICE_RULE_TENANT_TABLES = [
  'inventory_item_prices',
  'price_classes',
  'customer_price_classes',
  'price_lists',
  'price_list_entries',
  'company_currencies',
  'exchange_rates',
];

/** The tenant views (1766700000000) over the tables of the price rules, which came after it was written. */
export class WallPriceRules1766700000001 implements MigrationInterface {
  name = 'WallPriceRules1766700000001';

  up(q: QueryRunner): Promise<void> {
    return protectTablesByViewsV1(q, PRICE_RULE_TENANT_TABLES);
  }

  async down(q: QueryRunner): Promise<void> {
    // The views' schema is named as the request role: `<database>_app`, over 63 bytes a prefix and a hash.
    const [{ role }] = (await q.query(`
      SELECT CASE WHEN octet_length(current_database() || '_app') <= 63 THEN current_database() || '_app'
        ELSE left(current_database(), 46) || '_' || left(encode(sha256(convert_to(current_database(), 'UTF8')), 'hex'), 12) || '_app' END AS role`)) as Array<{ role: string }>;
    for (const table of [...PRICE_RULE_TENANT_TABLES].reverse()) await q.query(`DROP VIEW "${role}"."${table}"`);
  }
}
