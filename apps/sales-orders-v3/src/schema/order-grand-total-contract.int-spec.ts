import { Client } from 'pg';
import { migrateDatabase, migrationsFor, phaseOf } from '@erp/database';
import { createTestDatabase, type TestDatabase } from '@erp/testing';
import { SALES_ORDERS_ENTITIES, SALES_ORDERS_MIGRATIONS } from '../database';
import { RequireOrderGrandTotal1766960000000 } from '../migrations/1766960000000-require-order-grand-total';

const COMPANY = '1000001';

/** An order as release 1.0.0 inserts it: `grand_total` NULL, set later in its transaction. */
const OLD_RELEASE_INSERT = `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, customer_id, customer_name,
   billing, shipping, payment_settings, attachments, created_at, last_modified_at, order_total)
 VALUES ($1, 'SO', $2, 'Open', now(), '10001', 'Acme AS', '{"address": null, "contact": null}', '{"address": null, "contact": null}',
   '{"terms": null, "method": null}', '[]', now(), now(), $3)`;

/** The contract migration 1766960000000: what it does, and that it waits for the contract step. */
describe('sales-orders-v3: every order has its grand_total (contract migration)', () => {
  let db: TestDatabase;
  let sql: Client;
  const source = () => ({ url: db.url, entities: SALES_ORDERS_ENTITIES, migrations: SALES_ORDERS_MIGRATIONS, applicationName: 'grand-total-test' });

  beforeAll(async () => {
    db = await createTestDatabase('sales_orders_grand_total');
    sql = new Client({ connectionString: db.url });
    await sql.connect();
  });
  afterAll(async () => {
    await sql.end();
    await db.drop();
  });

  it('is a contract migration: the expand step leaves it out', () => {
    expect(phaseOf(RequireOrderGrandTotal1766960000000)).toBe('contract');
    expect(migrationsFor('expand', SALES_ORDERS_MIGRATIONS)).not.toContain(RequireOrderGrandTotal1766960000000);
    expect(migrationsFor('all', SALES_ORDERS_MIGRATIONS)).toContain(RequireOrderGrandTotal1766960000000);
  });

  it('lets the previous release write orders after the expand step, and fills their totals in the contract step', async () => {
    const expanded = await migrateDatabase(source(), { run: 'expand' });
    expect(expanded).not.toContain('RequireOrderGrandTotal1766960000000');
    // After the expand step the previous release's insert still works.
    await sql.query(OLD_RELEASE_INSERT, [COMPANY, '000001', '46.00']);
    await sql.query(OLD_RELEASE_INSERT, [COMPANY, '000002', '71.50']);

    expect(await migrateDatabase(source(), { run: 'all' })).toEqual(['RequireOrderGrandTotal1766960000000']);
    const totals = await sql.query(`SELECT order_id, grand_total::text FROM sales_orders ORDER BY order_id`);
    expect(totals.rows).toEqual([
      { order_id: '000001', grand_total: '46.00' },
      { order_id: '000002', grand_total: '71.50' },
    ]);
    // From now on a total-less order is refused: the previous release could not write (hence: contract).
    await expect(sql.query(OLD_RELEASE_INSERT, [COMPANY, '000003', '1.00'])).rejects.toMatchObject({ code: '23514' });
    const constraint = await sql.query(`SELECT convalidated FROM pg_constraint WHERE conname = 'sales_orders_grand_total_check'`);
    expect(constraint.rows).toEqual([{ convalidated: true }]);
  });
});
