import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource } from '../../data-source/create-data-source';
import { createScratchDatabase } from '../../test-support/scratch-database';
import { unprotectedTenantTables } from '../../tenancy/tenant-tables';
import { runAsCompany, runAsService } from '../../tenancy/tenant-scope';
import { migrateDatabase } from '../run-migrations';
import { disableTenantIsolationV1, enableTenantIsolationV1, type TenantTableV1 } from './tenant-isolation.v1';
import { enableTenantViewsV1 } from './tenant-views.v1';
import { enableServiceRoleV1 } from './service-role.v1';
import { dropTenantPoliciesV1, dropTenantViewsV1, protectChildTablesByViewsV1, restoreTenantPoliciesV1 } from './tenant-views-over-policies.v1';

const PARTS = { table: 'thing_parts', parent: { table: 'things', column: 'thing_id', parentColumn: 'id' } };
const TABLES: TenantTableV1[] = ['things', PARTS];

class CreateThings1700000000301 implements MigrationInterface {
  name = 'CreateThings1700000000301';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE things (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company_id varchar(64) NOT NULL, name text NOT NULL)`);
    await q.query(`CREATE TABLE thing_parts (id serial PRIMARY KEY, thing_id int NOT NULL REFERENCES things (id), label text NOT NULL)`);
    await q.query(`CREATE TABLE journal (id serial PRIMARY KEY, note text NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE journal, thing_parts, things`);
  }
}

/** The previous release's wall: policies. */
class EnableThingsRls1700000000302 implements MigrationInterface {
  name = 'EnableThingsRls1700000000302';
  up(q: QueryRunner): Promise<void> {
    return enableTenantIsolationV1(q, TABLES);
  }
  down(q: QueryRunner): Promise<void> {
    return disableTenantIsolationV1(q, TABLES);
  }
}

class WallThingsByViews1700000000303 implements MigrationInterface {
  name = 'WallThingsByViews1700000000303';
  async up(q: QueryRunner): Promise<void> {
    await enableTenantViewsV1(q, ['things'], ['journal']);
    await protectChildTablesByViewsV1(q, [PARTS]);
  }
  down(q: QueryRunner): Promise<void> {
    return dropTenantViewsV1(q);
  }
}

/** This release's expand step beside the views: background work as the service role. */
class ServiceRole1700000000304 implements MigrationInterface {
  name = 'ServiceRole1700000000304';
  up(q: QueryRunner): Promise<void> {
    return enableServiceRoleV1(q);
  }
  async down(): Promise<void> {
    // Dropped with the scratch database.
  }
}

class DropThingsRls1700000000305 implements MigrationInterface {
  name = 'DropThingsRls1700000000305';
  readonly phase = 'contract';
  up(q: QueryRunner): Promise<void> {
    return dropTenantPoliciesV1(q, TABLES);
  }
  down(q: QueryRunner): Promise<void> {
    return restoreTenantPoliciesV1(q, TABLES);
  }
}

const MIGRATIONS = [CreateThings1700000000301, EnableThingsRls1700000000302, WallThingsByViews1700000000303, ServiceRole1700000000304, DropThingsRls1700000000305];

/** A service walled by policies moved to the tenant views in a rolling upgrade's two steps (issue 41). */
describe('tenant views over policies (expand, then contract)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: DataSource;
  /** The owner, for what a migration does (the service's roles may not). */
  let owner: DataSource;
  const config = () => ({ url: database.url, entities: [], migrations: MIGRATIONS, applicationName: 'views-over-policies' });
  const gaps = () => unprotectedTenantTables((text) => db.query(text));
  // The tenant policies (the service role's own, which lets it see every row while they stand, stay inert once row security is off).
  const policies = () =>
    db.query(`SELECT count(*)::int AS n FROM pg_policy WHERE polname = 'tenant_isolation' AND polrelid IN ('things'::regclass, 'thing_parts'::regclass)`);
  /** What a company scope sees of the tables by name and, as code naming `public.` would, directly. */
  const seenBy = (company: string) =>
    runAsCompany(company, async () => ({
      things: await db.query(`SELECT DISTINCT company_id FROM things`),
      parts: await db.query(`SELECT count(*)::int AS n FROM thing_parts`),
      direct: await db.query(`SELECT DISTINCT company_id FROM public.things`).catch((error: { code?: string }) => error.code),
    }));

  beforeAll(async () => {
    database = await createScratchDatabase('views_over_policies');
    await migrateDatabase(config(), { run: 'expand' });
    db = createDataSource({ ...config(), tenantIsolation: true });
    await db.initialize();
    owner = createDataSource({ ...config(), purpose: 'migrations' });
    await owner.initialize();
    const ids = await db.query<Array<{ id: number }>>(`INSERT INTO things (company_id, name) VALUES ('A', 'a'), ('B', 'b1'), ('B', 'b2') RETURNING id`);
    await db.query(`INSERT INTO thing_parts (thing_id, label) SELECT unnest($1::int[]), 'part'`, [ids.map((row) => row.id)]);
  });

  afterAll(async () => {
    await db?.destroy();
    await owner?.destroy();
    await database?.drop();
  });

  it('after the expand step both forms stand: the views by name, the policies behind direct access (the previous release still holds its grants)', async () => {
    expect(await seenBy('A')).toEqual({ things: [{ company_id: 'A' }], parts: [{ n: 1 }], direct: [{ company_id: 'A' }] });
    expect(await policies()).toEqual([{ n: 2 }]);
    // Background work, as the service role, sees every company under the policies too.
    expect(await runAsService(() => db.query(`SELECT count(*)::int AS n FROM things`))).toEqual([{ n: 3 }]);
    // Open to the role directly (policies only): not yet the one wall.
    expect(await gaps()).toEqual(['thing_parts', 'things']);
  });

  it('after the contract step the views are the only way in: no policy, no privilege on the tables, no gap', async () => {
    await migrateDatabase(config(), { run: 'all' });
    expect(await seenBy('A')).toEqual({ things: [{ company_id: 'A' }], parts: [{ n: 1 }], direct: '42501' });
    expect(await seenBy('B')).toMatchObject({ things: [{ company_id: 'B' }], parts: [{ n: 2 }] });
    expect(await policies()).toEqual([{ n: 0 }]);
    expect(await gaps()).toEqual([]);
    // A table created later is not granted to the role by default any more.
    await owner.query(`CREATE TABLE later (company_id varchar(64) NOT NULL)`);
    expect(await gaps()).toEqual(['later']);
    await runAsCompany('A', () => expect(db.query(`SELECT * FROM later`)).rejects.toMatchObject({ code: '42501' }));
    await owner.query(`DROP TABLE later`);
  });

  it('undoes the contract step: policies and grants back', async () => {
    await owner.undoLastMigration();
    expect(await policies()).toEqual([{ n: 2 }]);
    expect(await seenBy('A')).toEqual({ things: [{ company_id: 'A' }], parts: [{ n: 1 }], direct: [{ company_id: 'A' }] });
    await owner.runMigrations();
    expect(await gaps()).toEqual([]);
  });
});
