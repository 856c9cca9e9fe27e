import { checkMigrationDrift, createDataSource, runMigrations } from '@erp/database';
import { createTestDatabase, type TestDatabase } from '@erp/testing';
import { SALES_ORDERS_ENTITIES, SALES_ORDERS_MIGRATIONS } from '../database';

describe('sales-orders-v3 schema', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('sales_orders_schema');
  });
  afterAll(() => db.drop());

  it('is created by the migrations exactly as the entities describe it (no drift)', async () => {
    const dataSource = createDataSource({
      url: db.url,
      entities: SALES_ORDERS_ENTITIES,
      migrations: SALES_ORDERS_MIGRATIONS,
      applicationName: 'sales-orders-v3-schema-test',
    });
    try {
      await runMigrations(dataSource);
      expect(await checkMigrationDrift(dataSource)).toEqual([]);
      const indexes = (await dataSource.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN ('sales_orders', 'sales_order_lines', 'customer_snapshots', 'sales_order_counters', 'inventory_items', 'inventory_warehouses', 'inventory_locations')`,
      )) as Array<{ indexname: string; indexdef: string }>;
      // Every query is scoped by company: every index leads with company_id (the primary key of
      // sales_orders is the identity the lines reference, used only together with company_id).
      for (const index of indexes.filter((i) => i.indexname !== 'sales_orders_pkey')) {
        expect(`${index.indexname}: ${index.indexdef}`).toMatch(/\((company_id)[,)]/);
      }
    } finally {
      await dataSource.destroy();
    }
  });
});
