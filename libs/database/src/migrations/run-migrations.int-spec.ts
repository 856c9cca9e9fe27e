import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';

import { type ClassReference, createDataSource } from '../data-source/create-data-source';
import { CreateWidgets1700000000001 } from '../test-support/1700000000001-create-widgets.migration';
import { createScratchDatabase } from '../test-support/scratch-database';
import { Widget } from '../test-support/widget.entity';
import { migrateDatabase, runMigrations } from './run-migrations';

class AddWidgetIndex1700000000002 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "widgets_company_id_idx" ON "widgets" ("company_id")`);
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "widgets_company_id_idx"`);
  }
}

class FailingMigration1700000000003 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "half_done" (id int)`);
    await queryRunner.query(`SELECT no_such_function()`);
  }
  async down(): Promise<void> {
    // nothing to undo
  }
}

async function recordedMigrations(url: string): Promise<string[]> {
  const client = new Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('runMigrations / migrateDatabase', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeEach(async () => {
    database = await createScratchDatabase('migrations');
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await database.drop();
  });

  const config = (migrations: ClassReference[]) => ({
    url: database.url,
    entities: [Widget],
    migrations,
    applicationName: 'database-lib-test',
  });

  it('applies pending migrations once, in order, and records them in the migrations table', async () => {
    const migrations = [AddWidgetIndex1700000000002, CreateWidgets1700000000001];

    expect(await migrateDatabase(config(migrations))).toEqual([
      'CreateWidgets1700000000001',
      'AddWidgetIndex1700000000002',
    ]);
    expect(await migrateDatabase(config(migrations))).toEqual([]);
    expect(await recordedMigrations(database.url)).toEqual([
      'CreateWidgets1700000000001',
      'AddWidgetIndex1700000000002',
    ]);
  });

  it('applies only the migrations added since the last run', async () => {
    await migrateDatabase(config([CreateWidgets1700000000001]));

    expect(await migrateDatabase(config([CreateWidgets1700000000001, AddWidgetIndex1700000000002]))).toEqual([
      'AddWidgetIndex1700000000002',
    ]);
  });

  it('applies each migration once when several runners start together', async () => {
    const results = await Promise.all(
      Array.from({ length: 4 }, () => migrateDatabase(config([CreateWidgets1700000000001]))),
    );

    expect(results.flat()).toEqual(['CreateWidgets1700000000001']);
    expect(await recordedMigrations(database.url)).toEqual(['CreateWidgets1700000000001']);
  });

  it('waits while another runner holds the migration lease, and takes over once its lease expires (a runner that died)', async () => {
    await migrateDatabase(config([]));
    const admin = new Client(database.url);
    await admin.connect();
    try {
      await admin.query(`UPDATE migrations_lease SET holder = 'another-runner', expires_at = now() + interval '1 hour'`);
      let done = false;
      const run = migrateDatabase(config([CreateWidgets1700000000001])).finally(() => (done = true));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(done).toBe(false);
      expect(await recordedMigrations(database.url)).toEqual([]);

      // The holder stops renewing (it died): its lease runs out and the waiting runner goes on.
      await admin.query(`UPDATE migrations_lease SET expires_at = now() - interval '1 second'`);
      expect(await run).toEqual(['CreateWidgets1700000000001']);
      const { rows } = await admin.query(`SELECT holder FROM migrations_lease`);
      expect(rows).toEqual([{ holder: null }]);
    } finally {
      await admin.end();
    }
  });

  it('rolls back a failing migration entirely, keeps the ones before it, and names it in the error it throws', async () => {
    const printed = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    await expect(
      migrateDatabase(config([CreateWidgets1700000000001, FailingMigration1700000000003])),
    ).rejects.toThrow(/^migration FailingMigration1700000000003 failed: .*no_such_function/);
    // The runner's error is the one report: TypeORM's own "Migration ... failed" line is left out.
    expect(printed.mock.calls.flat().join('\n')).not.toMatch(/failed/);

    expect(await recordedMigrations(database.url)).toEqual(['CreateWidgets1700000000001']);
    const client = new Client(database.url);
    await client.connect();
    const { rowCount } = await client.query(`SELECT 1 FROM pg_tables WHERE tablename = 'half_done'`);
    await client.end();
    expect(rowCount).toBe(0);
  });

  it('initialises a DataSource that is not yet initialised and leaves it usable', async () => {
    const dataSource = createDataSource(config([CreateWidgets1700000000001]));
    try {
      expect(await runMigrations(dataSource)).toEqual(['CreateWidgets1700000000001']);
      await dataSource.getRepository(Widget).insert({ companyId: 1, name: 'first' });
      expect(await dataSource.getRepository(Widget).count()).toBe(1);
    } finally {
      await dataSource.destroy();
    }
  });

  it('works with a pool of a single connection', async () => {
    expect(await migrateDatabase({ ...config([CreateWidgets1700000000001]), poolSize: 1 })).toEqual([
      'CreateWidgets1700000000001',
    ]);
  });
});
