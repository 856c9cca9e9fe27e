import { checkMigrationDrift, createDataSource, migrateDatabase } from '@erp/database';
import { createTestDatabase, type TestDatabase } from '@erp/testing';
import { ATTACHMENTS_ENTITIES, ATTACHMENTS_MIGRATIONS } from './database';

describe('attachments-v1 schema', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('attachments_drift');
  });
  afterAll(() => database.drop());

  it('is exactly what the entities describe once the migrations ran (no drift)', async () => {
    const config = { url: database.url, entities: ATTACHMENTS_ENTITIES, migrations: ATTACHMENTS_MIGRATIONS, applicationName: 'drift-test' };
    await migrateDatabase(config);
    const dataSource = createDataSource(config);
    try {
      expect(await checkMigrationDrift(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
