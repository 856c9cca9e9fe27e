import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource } from '../../data-source/create-data-source';
import { createScratchDatabase } from '../../test-support/scratch-database';
import { runAsCompany } from '../../tenancy/tenant-scope';
import { migrateDatabase } from '../run-migrations';
import { enableServiceRoleV1 } from './service-role.v1';
import { enableTenantViewsV1 } from './tenant-views.v1';
import { addWalledColumnsV1, dropWalledColumnsV1 } from './walled-columns.v1';

const PARTS = { table: 'gadget_parts', parent: { table: 'gadgets', column: 'gadget_id', parentColumn: 'id' } };

class CreateGadgets1700000000401 implements MigrationInterface {
  name = 'CreateGadgets1700000000401';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE gadgets (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company_id varchar(64) NOT NULL, name text NOT NULL)`);
    await q.query(`CREATE TABLE gadget_parts (id serial PRIMARY KEY, gadget_id int NOT NULL REFERENCES gadgets (id), label text NOT NULL)`);
    await enableTenantViewsV1(q, ['gadgets'], []);
    await enableServiceRoleV1(q);
  }
  async down(): Promise<void> {
    // Dropped with the scratch database.
  }
}

/** The one-field ticket's migration, as docs/adding-a-field.md writes it. */
class AddGadgetColour1700000000402 implements MigrationInterface {
  name = 'AddGadgetColour1700000000402';
  async up(q: QueryRunner): Promise<void> {
    await addWalledColumnsV1(q, 'gadgets', ['colour varchar(30)']);
    await addWalledColumnsV1(q, PARTS, ['weight_grams integer']);
  }
  async down(q: QueryRunner): Promise<void> {
    await dropWalledColumnsV1(q, PARTS, ['weight_grams']);
    await dropWalledColumnsV1(q, 'gadgets', ['colour']);
  }
}

/** The mistake the runner catches: ADD COLUMN on a walled table, its view left as it was. */
class AddGadgetSizeForgettingTheView1700000000403 implements MigrationInterface {
  name = 'AddGadgetSizeForgettingTheView1700000000403';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE gadgets ADD COLUMN size varchar(10)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await dropWalledColumnsV1(q, 'gadgets', ['size']);
  }
}

/** A column added to a walled table (issue 50): the frozen helpers, and the runner's check of every tenant view. */
describe('walled columns (addWalledColumnsV1, dropWalledColumnsV1) and the tenant views check', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: DataSource;
  let owner: DataSource;
  const config = (migrations: Array<new () => MigrationInterface>) => ({ url: database.url, entities: [], migrations, applicationName: 'walled-columns' });
  const MIGRATIONS = [CreateGadgets1700000000401, AddGadgetColour1700000000402];
  /** What the request role of company A reads of both tables, through their views. */
  const seenByA = () =>
    runAsCompany('A', async () => ({
      gadgets: await db.query(`SELECT * FROM gadgets`),
      parts: await db.query(`SELECT label, weight_grams FROM gadget_parts`).catch((error: { code?: string }) => error.code),
    }));

  beforeAll(async () => {
    database = await createScratchDatabase('walled_columns');
    await migrateDatabase(config(MIGRATIONS));
    db = createDataSource({ ...config(MIGRATIONS), tenantIsolation: true });
    await db.initialize();
    owner = createDataSource({ ...config(MIGRATIONS), purpose: 'migrations' });
    await owner.initialize();
    const [{ id }] = await owner.query<Array<{ id: number }>>(`INSERT INTO gadgets (company_id, name, colour) VALUES ('A', 'a', 'red'), ('B', 'b', 'blue') RETURNING id`);
    await owner.query(`INSERT INTO gadget_parts (gadget_id, label, weight_grams) VALUES ($1, 'wheel', 120)`, [id]);
  });

  afterAll(async () => {
    await db?.destroy();
    await owner?.destroy();
    await database?.drop();
  });

  it('adds the columns and makes the views again: the request role reads them, its company only', async () => {
    expect(await seenByA()).toEqual({
      gadgets: [{ id: expect.any(Number), company_id: 'A', name: 'a', colour: 'red' }],
      parts: [{ label: 'wheel', weight_grams: 120 }],
    });
  });

  it('undoes them (the view dropped first, as PostgreSQL requires), and runs again', async () => {
    await owner.undoLastMigration();
    expect(await seenByA()).toEqual({ gadgets: [{ id: expect.any(Number), company_id: 'A', name: 'a' }], parts: '42703' });
    await owner.runMigrations();
    // Run twice (as after a lock timeout), nothing changes.
    const q = owner.createQueryRunner();
    await new AddGadgetColour1700000000402().up(q);
    await q.release();
    expect(await seenByA()).toMatchObject({ gadgets: [{ company_id: 'A', colour: null }], parts: [{ label: 'wheel', weight_grams: null }] });
  });

  it('refuses a run that leaves a tenant view without a column of its table, naming the view, the column and the fix', async () => {
    await expect(migrateDatabase(config([...MIGRATIONS, AddGadgetSizeForgettingTheView1700000000403]))).rejects.toThrow(
      /the tenant view \w*walled_columns\w*_app\.gadgets lacks the column\(s\) size of table gadgets: add them with addWalledColumnsV1\(q, 'gadgets'/,
    );
    // The check holds each later run to it too, until a migration makes the view again.
    await expect(migrateDatabase(config([...MIGRATIONS, AddGadgetSizeForgettingTheView1700000000403]))).rejects.toThrow(/lacks the column\(s\) size/);
    await owner.query(`ALTER TABLE gadgets DROP COLUMN size`);
    await expect(migrateDatabase(config([...MIGRATIONS, AddGadgetSizeForgettingTheView1700000000403]))).resolves.toEqual([]);
  });
});
