import { Client } from 'pg';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource } from '../data-source/create-data-source';
import { CreateWidgets1700000000001 } from '../test-support/1700000000001-create-widgets.migration';
import { createScratchDatabase } from '../test-support/scratch-database';
import { migrationsFor, phaseOf } from './migration-phase';
import { migrateDatabase } from './run-migrations';
import { missingExpandMigrations } from './schema-status';

/** Resolves once a session waits for `mode` on some table (the migration queued behind the holder). */
async function untilLockRequested(url: string, mode: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const { rows } = await withClient(url, (c) => c.query(`SELECT 1 FROM pg_locks WHERE NOT granted AND mode = $1`, [mode]));
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no session came to wait for ${mode} within 120 s: the migration never asked for its lock`);
}

/** An expand migration: adds, leaving what the previous release uses working. */
class AddWidgetColour1700000000002 implements MigrationInterface {
  name = 'AddWidgetColour1700000000002';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE widgets ADD COLUMN colour varchar(20)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE widgets DROP COLUMN colour`);
  }
}

/** A contract migration: tightens what the previous release writes. */
class RequireWidgetColour1700000000003 implements MigrationInterface {
  name = 'RequireWidgetColour1700000000003';
  readonly phase = 'contract';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE widgets SET colour = 'grey' WHERE colour IS NULL`);
    await q.query(`ALTER TABLE widgets ALTER COLUMN colour SET NOT NULL`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE widgets ALTER COLUMN colour DROP NOT NULL`);
  }
}

const MIGRATIONS = [CreateWidgets1700000000001, AddWidgetColour1700000000002, RequireWidgetColour1700000000003];

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('expand and contract migrations (docs/migrations.md), over PostgreSQL', () => {
  it('reads the phase a migration declares (expand by default)', () => {
    expect(MIGRATIONS.map(phaseOf)).toEqual(['expand', 'expand', 'contract']);
    expect(migrationsFor('expand', MIGRATIONS)).toEqual([CreateWidgets1700000000001, AddWidgetColour1700000000002]);
    expect(migrationsFor('all', MIGRATIONS)).toEqual(MIGRATIONS);
  });

  it('applies the expand migrations in the expand step, the contract ones in the contract step; the schema gate needs only the expand ones', async () => {
    const db = await createScratchDatabase('phases');
    const config = { url: db.url, entities: [], migrations: MIGRATIONS, applicationName: 'phases-test' };
    const dataSource = createDataSource(config);
    try {
      await dataSource.initialize();
      expect(await missingExpandMigrations(dataSource, MIGRATIONS)).toEqual(['CreateWidgets1700000000001', 'AddWidgetColour1700000000002']);
      expect(await migrateDatabase(config, { run: 'expand' })).toEqual(['CreateWidgets1700000000001', 'AddWidgetColour1700000000002']);
      expect(await missingExpandMigrations(dataSource, MIGRATIONS)).toEqual([]);
      // The previous release writes widgets without a colour: still possible before the contract step.
      await withClient(db.url, (c) => c.query(`INSERT INTO widgets (company_id, name) VALUES (1, 'old release')`));
      expect(await migrateDatabase(config, { run: 'expand' })).toEqual([]);
      expect(await migrateDatabase(config, { run: 'all' })).toEqual(['RequireWidgetColour1700000000003']);
      await expect(withClient(db.url, (c) => c.query(`INSERT INTO widgets (company_id, name) VALUES (1, 'old release')`))).rejects.toMatchObject({ code: '23502' });
      // A database newer than the code (a migration it does not know) is no concern of the gate.
      expect(await missingExpandMigrations(dataSource, [CreateWidgets1700000000001])).toEqual([]);
    } finally {
      await dataSource.destroy();
      await db.drop();
    }
  });

  it('gives up a lock it cannot have within the lock timeout, so writers queued behind it go on, and applies the migration once the lock is free', async () => {
    const db = await createScratchDatabase('lock_timeout');
    const config = { url: db.url, entities: [], migrations: [CreateWidgets1700000000001], applicationName: 'lock-timeout-test' };
    await migrateDatabase(config);
    await withClient(db.url, (c) => c.query(`INSERT INTO widgets (company_id, name) SELECT 1, 'w' || i FROM generate_series(1, 10) i`));
    const holder = new Client(db.url);
    const writer = new Client(db.url);
    await holder.connect();
    await writer.connect();
    try {
      // A long transaction that wrote to the table (holds ROW EXCLUSIVE until it ends).
      await holder.query(`BEGIN`);
      await holder.query(`UPDATE widgets SET name = name WHERE name = 'w1'`);
      const lines: string[] = [];
      const migrating = migrateDatabase(
        { ...config, migrations: [CreateWidgets1700000000001, AddWidgetColour1700000000002] },
        { lockTimeoutMs: 300, log: (line) => lines.push(line) },
      );
      await untilLockRequested(db.url, 'AccessExclusiveLock');
      // Without the lock timeout this write would wait behind the ALTER TABLE's lock request until
      // the holder ends. The writer gives up a lock wait of 1 s itself (a lock wait, not a CPU budget):
      // it must get its lock as soon as the migration's 300 ms request is withdrawn.
      await writer.query(`SET lock_timeout = '1s'`);
      const written = writer.query(`UPDATE widgets SET name = name WHERE name = 'w2'`);
      await expect(written).resolves.toMatchObject({ rowCount: 1 });
      await holder.query(`COMMIT`);
      expect(await migrating).toEqual(['AddWidgetColour1700000000002']);
      // Reported as a retry, at info, naming the migration: not as a failure.
      expect(lines.some((line) => line.startsWith('AddWidgetColour1700000000002 could not take its locks in time (55P03)') && line.includes('will retry'))).toBe(true);
    } finally {
      await holder.end();
      await writer.end();
      await db.drop();
    }
  });
});
