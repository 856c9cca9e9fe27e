import { checkMigrationDrift, createDataSource, migrateDatabase } from '@erp/database';
import { createTestDatabase, type TestDatabase } from '@erp/testing';
import { SUPPLIER_INVOICES_ENTITIES, SUPPLIER_INVOICES_MIGRATIONS } from './database';

describe('supplier-invoices-v1 schema', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('supplier_invoices_drift');
  });
  afterAll(() => database.drop());

  it('is exactly what the entities describe once the migrations ran (no drift)', async () => {
    const config = { url: database.url, entities: SUPPLIER_INVOICES_ENTITIES, migrations: SUPPLIER_INVOICES_MIGRATIONS, applicationName: 'drift-test' };
    await migrateDatabase(config);
    const dataSource = createDataSource(config);
    try {
      expect(await checkMigrationDrift(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
