import { checkMigrationDrift, createDataSource, runMigrations } from '@erp/database';
import { createTestDatabase, type TestDatabase } from '@erp/testing';
import { WEBHOOKS_ENTITIES, WEBHOOKS_MIGRATIONS } from '../database';

describe('webhook-publisher schema', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('webhooks_schema');
  });
  afterAll(() => db.drop());

  it('is created by the migrations exactly as the entities describe it (no drift)', async () => {
    const dataSource = createDataSource({
      url: db.url,
      entities: WEBHOOKS_ENTITIES,
      migrations: WEBHOOKS_MIGRATIONS,
      applicationName: 'webhook-publisher-schema-test',
    });
    try {
      await runMigrations(dataSource);
      expect(await checkMigrationDrift(dataSource)).toEqual([]);
    } finally {
      await dataSource.destroy();
    }
  });
});
