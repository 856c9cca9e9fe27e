import { type ClassReference, createDataSource } from '../data-source/create-data-source';
import { CreateWidgets1700000000001 } from '../test-support/1700000000001-create-widgets.migration';
import { createScratchDatabase } from '../test-support/scratch-database';
import { Widget, WidgetWithColour } from '../test-support/widget.entity';
import { checkMigrationDrift } from './migration-drift';
import { migrateDatabase } from './run-migrations';

describe('checkMigrationDrift', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeAll(async () => {
    database = await createScratchDatabase('drift');
    await migrateDatabase({
      url: database.url,
      entities: [Widget],
      migrations: [CreateWidgets1700000000001],
      applicationName: 'database-lib-test',
    });
  });

  afterAll(async () => {
    await database.drop();
  });

  async function driftFor(entity: ClassReference): Promise<string[]> {
    const dataSource = createDataSource({
      url: database.url,
      entities: [entity],
      migrations: [],
      applicationName: 'database-lib-test',
    });
    try {
      return await checkMigrationDrift(dataSource);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
    }
  }

  it('reports nothing when the migrations create exactly what the entities describe', async () => {
    expect(await driftFor(Widget)).toEqual([]);
  });

  it('reports the SQL for an entity column that no migration adds', async () => {
    const drift = await driftFor(WidgetWithColour);

    expect(drift).toEqual([
      expect.stringMatching(/^ALTER TABLE "widgets" ADD "colour" character varying\(30\)/),
    ]);
  });

  it('reports a table for an entity when no migration ran', async () => {
    const empty = await createScratchDatabase('drift_empty');
    const dataSource = createDataSource({
      url: empty.url,
      entities: [Widget],
      migrations: [],
      applicationName: 'database-lib-test',
    });
    try {
      expect(await checkMigrationDrift(dataSource)).toEqual([
        expect.stringMatching(/^CREATE TABLE "widgets"/),
      ]);
    } finally {
      await dataSource.destroy();
      await empty.drop();
    }
  });
});
