import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource } from '../data-source/create-data-source';
import { migrateDatabase } from '../migrations/run-migrations';
import { disableTenantViewsV1, enableTenantViewsV1, protectTablesByViewsV1 } from '../migrations/history/tenant-views.v1';
import { protectChildTablesByViewsV1, type TenantChildTableV1 } from '../migrations/history/tenant-views-over-policies.v1';
import { queryRows } from '../sql/query-rows';
import { createScratchDatabase } from '../test-support/scratch-database';
import { ServiceRole1700000000900 } from '../test-support/service-role.migration';
import { verifyTenantBinding } from './tenant-binding';
import { probeTenantWall } from './tenant-wall-probe';
import { unprotectedTenantTables } from './tenant-tables';
import { tenantRoleName } from './tenant-role';
import { runAsCompany } from './tenant-scope';

class CreateItems1700000000201 implements MigrationInterface {
  name = 'CreateItems1700000000201';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE TABLE items (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company_id varchar(64) NOT NULL, name text NOT NULL)`);
    await q.query(`CREATE INDEX items_name_trgm ON items USING gin (lower(name) gin_trgm_ops)`);
    await q.query(`CREATE TABLE item_notes (id serial PRIMARY KEY, item_id int NOT NULL REFERENCES items (id) ON DELETE CASCADE, note text NOT NULL)`);
    await q.query(`CREATE TABLE journal (id serial PRIMARY KEY, note text NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE journal`);
    await q.query(`DROP TABLE item_notes`);
    await q.query(`DROP TABLE items`);
  }
}

/** Notes belong to their item's company. */
const NOTES: TenantChildTableV1 = { table: 'item_notes', parent: { table: 'items', column: 'item_id', parentColumn: 'id' } };

class WallItems1700000000202 implements MigrationInterface {
  name = 'WallItems1700000000202';
  async up(q: QueryRunner): Promise<void> {
    await enableTenantViewsV1(q, ['items'], ['journal']);
    await protectChildTablesByViewsV1(q, [NOTES]);
  }
  down(q: QueryRunner): Promise<void> {
    return disableTenantViewsV1(q);
  }
}

const MIGRATIONS = [CreateItems1700000000201, WallItems1700000000202, ServiceRole1700000000900];

/** The tenant wall (enableTenantViewsV1, protectChildTablesByViewsV1), as every service uses it. */
describe('tenant views (libs/database tenancy)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: DataSource;
  /** The owner, for what a migration would do (the service's roles may not). */
  let owner: DataSource;
  const gaps = () => unprotectedTenantTables((text) => db.query(text));
  const refreshView = async () => {
    const runner = owner.createQueryRunner();
    try {
      await protectTablesByViewsV1(runner, ['items']);
      await protectChildTablesByViewsV1(runner, [NOTES]);
    } finally {
      await runner.release();
    }
  };

  beforeAll(async () => {
    database = await createScratchDatabase('tenant_views');
    await migrateDatabase({ url: database.url, entities: [], migrations: MIGRATIONS, applicationName: 'views-test' });
    db = createDataSource({ url: database.url, entities: [], migrations: MIGRATIONS, applicationName: 'views-test', tenantIsolation: true });
    await db.initialize();
    owner = createDataSource({ url: database.url, entities: [], migrations: [], applicationName: 'views-test-owner', purpose: 'migrations' });
    await owner.initialize();
    await verifyTenantBinding(db);
    await db.query(`INSERT INTO items (company_id, name) SELECT CASE WHEN g % 2 = 0 THEN 'A' ELSE 'B' END, 'item ' || g FROM generate_series(1, 40) g`);
    await db.query(`INSERT INTO item_notes (item_id, note) SELECT id, 'note of ' || id FROM items`);
    await db.query(`INSERT INTO journal (note) VALUES ('shared')`);
  });

  afterAll(async () => {
    await db?.destroy();
    await owner?.destroy();
    await database?.drop();
  });

  it('limits a company scope to its rows, refuses rows for another company, and leaves the service scope whole', async () => {
    const report = await probeTenantWall(db, 'items', { own: 'A', other: 'B' });
    expect(report).toMatchObject({ rows: { own: 20, other: 20 }, seen: 20, seenOfOther: 0, updated: 20, deleted: 20 });
    expect(report.insertForOther).toBe('44000');
    expect(report.moveToOther).toBe('44000');
    expect(await db.query(`SELECT count(*)::int AS n FROM items`)).toEqual([{ n: 40 }]);
  });

  it('limits a table owned through its parent row to the rows of the company parents, and refuses a row pointed at another company parent', async () => {
    const report = await probeTenantWall(db, NOTES, { own: 'A', other: 'B' });
    expect(report).toMatchObject({ rows: { own: 20, other: 20 }, seen: 20, seenOfOther: 0, updated: 20, deleted: 20 });
    expect(report.insertForOther).toBe('44000');
  });

  it('closes the table itself to the request role; the shared tables stay open to it', async () => {
    await runAsCompany('A', async () => {
      await expect(db.query(`SELECT count(*) FROM public.items`)).rejects.toMatchObject({ code: '42501' });
      expect(await db.query(`SELECT count(*)::int AS n FROM journal`)).toEqual([{ n: 1 }]);
      // Inserted through the view: the table's defaults and identity apply, the row is A's.
      const [row] = await queryRows<{ id: number; company_id: string }>(db, `INSERT INTO items (company_id, name) VALUES ('A', 'new') RETURNING id, company_id`);
      expect(row).toEqual({ id: 41, company_id: 'A' });
    });
  });

  it('keeps a condition of the query usable as an index condition (no security barrier)', async () => {
    await runAsCompany('A', () =>
      db.transaction(async (tx) => {
        await tx.query(`SET LOCAL enable_seqscan = off`);
        const plan = (await tx.query(`EXPLAIN SELECT id FROM items WHERE lower(name) LIKE '%item 1%'`)) as Array<{ 'QUERY PLAN': string }>;
        expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/Index Cond: \(lower\(name\) ~~ '%item 1%'::text\)/);
      }),
    );
  });

  it('reports a company table left outside the wall, opened to the role, or whose view lost a column or its condition', async () => {
    const role = `"${tenantRoleName(database.name)}"`;
    expect(await gaps()).toEqual([]);
    await owner.query(`CREATE TABLE forgotten (company_id varchar(64) NOT NULL)`);
    expect(await gaps()).toEqual(['forgotten']);
    await owner.query(`DROP TABLE forgotten`);

    await owner.query(`GRANT SELECT ON items TO ${role}`);
    expect(await gaps()).toEqual(['items']);
    await owner.query(`REVOKE SELECT ON items FROM ${role}`);

    await owner.query(`ALTER TABLE items ADD COLUMN note text`);
    expect(await gaps()).toEqual(['items']);
    await refreshView();
    expect(await gaps()).toEqual([]);

    await owner.query(`CREATE OR REPLACE VIEW ${role}.items WITH (check_option = cascaded) AS SELECT * FROM public.items WHERE true OR company_id = current_setting('app.company_id', true)`);
    expect(await gaps()).toEqual(['items']);
    await refreshView();
    expect(await gaps()).toEqual([]);
  });

  it('reports a view that reads another table, compares with another setting, lost its check option, or a child view that lost its parent condition', async () => {
    const role = `"${tenantRoleName(database.name)}"`;
    const condition = `WHERE company_id = current_setting('app.company_id', true)`;
    await owner.query(`CREATE TABLE items_copy (LIKE items)`);
    await owner.query(`CREATE OR REPLACE VIEW ${role}.items WITH (check_option = cascaded) AS SELECT * FROM public.items_copy ${condition}`);
    expect(await gaps()).toEqual(['items', 'items_copy']);
    await owner.query(`DROP TABLE items_copy CASCADE`);
    await refreshView();

    await owner.query(`CREATE OR REPLACE VIEW ${role}.items WITH (check_option = cascaded) AS SELECT * FROM public.items WHERE company_id = current_setting('app.user_id', true)`);
    expect(await gaps()).toEqual(['items']);
    await owner.query(`CREATE OR REPLACE VIEW ${role}.items WITH (check_option = local) AS SELECT * FROM public.items ${condition}`);
    expect(await gaps()).toEqual(['items']);
    await refreshView();

    await owner.query(`CREATE OR REPLACE VIEW ${role}.item_notes WITH (check_option = cascaded) AS SELECT * FROM public.item_notes x WHERE EXISTS (SELECT 1 FROM public.items p WHERE p.id = x.item_id)`);
    expect(await gaps()).toEqual(['item_notes']);
    await refreshView();

    await owner.query(`CREATE TABLE forgotten_notes (item_id int NOT NULL REFERENCES items (id))`);
    expect(await gaps()).toEqual(['forgotten_notes']);
    await owner.query(`DROP TABLE forgotten_notes`);
    expect(await gaps()).toEqual([]);
  });
});
