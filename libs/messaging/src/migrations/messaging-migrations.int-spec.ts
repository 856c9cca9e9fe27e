import { checkMigrationDrift, createDataSource, runMigrations } from '@erp/database';
import { createTestDatabase, type TestDatabase } from '@erp/testing';
import { MESSAGING_ENTITIES, MESSAGING_MIGRATIONS } from '../schema';

describe('messaging migrations', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('messaging_migrations');
  });
  afterAll(() => db.drop());

  it('create the outbox and processed_events tables exactly as the entities describe them', async () => {
    const dataSource = createDataSource({
      url: db.url,
      entities: MESSAGING_ENTITIES,
      migrations: MESSAGING_MIGRATIONS,
      applicationName: 'messaging-migrations-test',
    });
    try {
      expect(await runMigrations(dataSource)).toEqual([
        'CreateOutbox1763740000000',
        'CreateProcessedEvents1763740000001',
        'AddOutboxTraceContext1795300000000',
      ]);
      expect(await checkMigrationDrift(dataSource)).toEqual([]);
      const indexes = await dataSource.query(
        `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'outbox' ORDER BY indexname`,
      );
      expect(indexes.map((i: { indexname: string }) => i.indexname)).toContain('outbox_unpublished_idx');
      expect(indexes.find((i: { indexname: string }) => i.indexname === 'outbox_unpublished_idx').indexdef).toMatch(
        /WHERE \(published_at IS NULL\)/,
      );
    } finally {
      await dataSource.destroy();
    }
  });
});
