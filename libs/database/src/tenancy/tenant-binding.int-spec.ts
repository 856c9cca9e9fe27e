import { type CanActivate, Controller, type ExecutionContext, Get, Injectable, Module } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { InjectDataSource } from '@nestjs/typeorm';
import pg, { type PoolClient } from 'pg';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { withAdminClient } from '../admin/database-admin';
import { ensureRuntimeLogin } from '../admin/runtime-login';
import { createDataSource } from '../data-source/create-data-source';
import { migrateDatabase } from '../migrations/run-migrations';
import { DatabaseModule } from '../nest/database.module';
import { queryRows } from '../sql/query-rows';
import { prepared, preparedStatementName } from '../sql/prepared-statement';
import { createScratchDatabase } from '../test-support/scratch-database';
import { ServiceRole1700000000900 } from '../test-support/service-role.migration';
import { verifyTenantBinding } from './tenant-binding';
import { disableTenantViewsV1, enableTenantViewsV1 } from '../migrations/history/tenant-views.v1';
import { protectChildTablesByViewsV1, type TenantChildTableV1 } from '../migrations/history/tenant-views-over-policies.v1';
import { unprotectedTenantTables } from './tenant-tables';
import { serviceRoleName, tenantRoleName } from './tenant-role';
import { runAsCompany, runAsService } from './tenant-scope';

const PARTS: TenantChildTableV1 = { table: 'thing_parts', parent: { table: 'things', column: 'thing_id', parentColumn: 'id' } };

class CreateThings1700000000101 implements MigrationInterface {
  name = 'CreateThings1700000000101';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE things (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company_id varchar(64) NOT NULL, name text NOT NULL)`);
    await q.query(`CREATE TABLE thing_parts (id serial PRIMARY KEY, thing_id int NOT NULL REFERENCES things (id), label text NOT NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE thing_parts`);
    await q.query(`DROP TABLE things`);
  }
}

class WallThings1700000000102 implements MigrationInterface {
  name = 'WallThings1700000000102';
  async up(q: QueryRunner): Promise<void> {
    await enableTenantViewsV1(q, ['things'], []);
    await protectChildTablesByViewsV1(q, [PARTS]);
  }
  down(q: QueryRunner): Promise<void> {
    return disableTenantViewsV1(q);
  }
}

const MIGRATIONS = [CreateThings1700000000101, WallThings1700000000102, ServiceRole1700000000900];

function sqlStateOf(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

async function failure(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

/**
 * The binding of every transaction to its tenant scope (transaction-scoped-pg.ts), with the tenant
 * wall (tenant-views.int-spec.ts) in front of the tables.
 */
describe('the tenant binding per company (libs/database tenancy)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: DataSource;
  /** The database as the runtime login, as a service connects (docs/platform-teams.md). */
  let runtimeUrl: string;
  let bThingId: number;

  beforeAll(async () => {
    database = await createScratchDatabase('tenancy');
    await migrateDatabase({ url: database.url, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-test' });
    runtimeUrl = await ensureRuntimeLogin(database.serverUrl, database.name);
    // A pool of two, so the concurrent test below hands connections between companies.
    db = createDataSource({
      url: runtimeUrl,
      entities: [],
      migrations: MIGRATIONS,
      applicationName: 'tenancy-test',
      poolSize: 2,
      tenantIsolation: true,
    });
    await db.initialize();
    await verifyTenantBinding(db);
  });

  beforeEach(async () => {
    // Outside any scope: the service role, across companies (which may delete, not truncate).
    await db.query(`DELETE FROM thing_parts`);
    await db.query(`DELETE FROM things`);
    const ids = await db.query<Array<{ id: number; company_id: string }>>(
      `INSERT INTO things (company_id, name) VALUES ('A', 'a1'), ('A', 'a2'), ('B', 'b1'), ('B', 'b2'), ('B', 'b3')
       RETURNING id, company_id`,
    );
    await db.query(`INSERT INTO thing_parts (thing_id, label) SELECT id, 'part of ' || id FROM things`);
    bThingId = ids.find((row) => row.company_id === 'B')!.id;
  });

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const companiesSeen = (table: string) =>
    db.query<Array<{ company_id: string; n: number }>>(
      table === 'things'
        ? `SELECT company_id, count(*)::int AS n FROM things GROUP BY 1 ORDER BY 1`
        : `SELECT t.company_id, count(*)::int AS n FROM thing_parts p JOIN things t ON t.id = p.thing_id GROUP BY 1 ORDER BY 1`,
    );

  it('a query without a company filter sees only the scope company rows, children through their parent', async () => {
    await runAsCompany('A', async () => {
      expect(await db.query(`SELECT name FROM things ORDER BY name`)).toEqual([{ name: 'a1' }, { name: 'a2' }]);
      expect(await db.query(`SELECT count(*)::int AS n FROM thing_parts`)).toEqual([{ n: 2 }]);
      expect(await db.query(`SELECT current_user AS role`)).toEqual([{ role: tenantRoleName(database.name) }]);
    });
    await runAsCompany('B', async () => {
      expect(await db.query(`SELECT count(*)::int AS n FROM things`)).toEqual([{ n: 3 }]);
    });
  });

  it('cannot update or delete another company rows, with or without a filter', async () => {
    await runAsCompany('A', async () => {
      expect(await queryRows(db, `UPDATE things SET name = name || '!' RETURNING company_id`)).toHaveLength(2);
      expect(await queryRows(db, `UPDATE things SET name = 'x' WHERE id = $1 RETURNING id`, [bThingId])).toEqual([]);
      expect(await queryRows(db, `DELETE FROM thing_parts WHERE thing_id = $1 RETURNING id`, [bThingId])).toEqual([]);
      expect(await queryRows(db, `DELETE FROM thing_parts RETURNING id`)).toHaveLength(2);
    });
    expect(await db.query(`SELECT name FROM things WHERE company_id = 'B' ORDER BY name`)).toEqual([
      { name: 'b1' },
      { name: 'b2' },
      { name: 'b3' },
    ]);
    expect(await companiesSeen('thing_parts')).toEqual([{ company_id: 'B', n: 3 }]);
  });

  it('cannot insert a row for another company, move a row to it, or attach a child to its rows', async () => {
    await runAsCompany('A', async () => {
      // 44000: the view's check option.
      const insert = await failure(db.query(`INSERT INTO things (company_id, name) VALUES ('B', 'planted')`));
      expect(sqlStateOf(insert)).toBe('44000');
      const move = await failure(db.query(`UPDATE things SET company_id = 'B'`));
      expect(sqlStateOf(move)).toBe('44000');
      const child = await failure(db.query(`INSERT INTO thing_parts (thing_id, label) VALUES ($1, 'planted')`, [bThingId]));
      expect(sqlStateOf(child)).toBe('44000');
      // Its own rows it may write.
      await db.query(`INSERT INTO things (company_id, name) VALUES ('A', 'a3')`);
    });
    expect(await companiesSeen('things')).toEqual([
      { company_id: 'A', n: 3 },
      { company_id: 'B', n: 3 },
    ]);
  });

  it('binds transactions and raw clients of query runners (the streamed lists) too', async () => {
    await runAsCompany('B', async () => {
      const inTx = await db.transaction((tx) => tx.query(`SELECT count(*)::int AS n FROM things`));
      expect(inTx).toEqual([{ n: 3 }]);
      const runner = db.createQueryRunner();
      try {
        const client = (await runner.connect()) as PoolClient;
        expect((await client.query(`SELECT count(*)::int AS n FROM things`)).rows).toEqual([{ n: 3 }]);
      } finally {
        await runner.release();
      }
    });
  });

  it('an empty company (a route without one) sees no tenant rows', async () => {
    await runAsCompany('', async () => {
      expect(await db.query(`SELECT count(*)::int AS n FROM things`)).toEqual([{ n: 0 }]);
    });
  });

  it('background work (service scope, or no scope) sees and changes every company', async () => {
    expect(await runAsService(() => companiesSeen('things'))).toEqual([
      { company_id: 'A', n: 2 },
      { company_id: 'B', n: 3 },
    ]);
    // Service scope inside a request scope: a background job started from a request is not limited.
    await runAsCompany('A', () =>
      runAsService(async () => expect(await db.query(`SELECT count(*)::int AS n FROM things`)).toEqual([{ n: 5 }])),
    );
    expect(await companiesSeen('thing_parts')).toEqual([
      { company_id: 'A', n: 2 },
      { company_id: 'B', n: 3 },
    ]);
  });

  it('keeps companies apart when many requests share a small pool', async () => {
    const jobs = Array.from({ length: 60 }, (_, i) => {
      const company = ['A', 'B', ''][i % 3];
      return runAsCompany(company, async () => {
        const rows = await db.query<Array<{ company_id: string }>>(`SELECT DISTINCT company_id FROM things`);
        return { company, seen: rows.map((row) => row.company_id) };
      });
    });
    for (const { company, seen } of await Promise.all(jobs)) expect(seen).toEqual(company ? [company] : []);
    expect(await db.query(`SELECT count(DISTINCT company_id)::int AS n FROM things`)).toEqual([{ n: 2 }]);
  });

  it('costs no round trip for the binding: it goes with BEGIN, or with a lone statement in the same exchange', async () => {
    // Counts what reaches the wire: the scoped client sends through pg's own Client#query.
    const sent = jest.spyOn(pg.Client.prototype, 'query');
    const wire = () =>
      sent.mock.calls.map(([query]) => {
        const sentQuery = query as unknown as string | { text?: string } | undefined;
        if (typeof sentQuery === 'string') return sentQuery;
        // A query config's text, or the Submittable's class (the settings and statement exchange).
        return sentQuery?.constructor === Object ? String(sentQuery.text) : (sentQuery?.constructor?.name ?? typeof sentQuery);
      });
    try {
      await runAsCompany('A', () => db.transaction(async (tx) => {
        await tx.query(`SELECT count(*) FROM things`);
        await tx.query(`SELECT count(*) FROM thing_parts`);
      }));
      // START TRANSACTION + settings in one message, two statements, COMMIT: as many as without binding.
      expect(wire()).toHaveLength(4);
      expect(wire()[0]).toMatch(/^START TRANSACTION;\s*SELECT set_config\('statement_timeout'.*set_config\('role'.*set_config\('app\.company_id', 'A', true\)/s);
      expect(wire()[3]).toBe('COMMIT');

      // A lone statement without parameters: settings and statement in one simple-query message.
      sent.mockClear();
      expect(await runAsCompany('B', () => db.query(`SELECT count(*)::int AS n FROM things`))).toEqual([{ n: 3 }]);
      expect(wire()).toHaveLength(1);
      expect(wire()[0]).toMatch(/set_config\('app\.company_id', 'B', true\), set_config\('search_path', '"[a-z0-9_]+_app", public', true\);\s*SELECT count/s);

      // With parameters: one extended-protocol exchange (settings' Bind/Execute, then the statement's),
      // once the connection has prepared the settings statement (a round trip of its own, once per
      // connection and shape of scope: the warm-up; the pool hands out the connection last released).
      await runAsCompany('B', () => db.query(`SELECT $1::int AS n`, [1]));
      sent.mockClear();
      expect(await runAsCompany('B', () => db.query(`SELECT count(*)::int AS n FROM things WHERE name <> $1`, ['b1']))).toEqual([{ n: 2 }]);
      expect(wire()).toEqual(['WithTransactionSettings']);
    } finally {
      sent.mockRestore();
    }
  });

  it('runs a lone statement with its timeout, and leaves nothing set on the session after it', async () => {
    const [row] = await runAsCompany('A', () =>
      db.query<Array<{ timeout: string; company: string }>>(`SELECT current_setting('statement_timeout') AS timeout, current_setting('app.company_id', true) AS company, $1::text AS x`, ['x']),
    );
    expect(row).toMatchObject({ timeout: '30s', company: 'A' });
    const runner = db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      // Straight on the session (pg's own query, bypassing the binding): back to its defaults.
      const plainQuery = pg.Client.prototype.query as unknown as (this: PoolClient, text: string) => Promise<{ rows: unknown[] }>;
      const { rows } = await plainQuery.call(client, `SELECT current_setting('app.company_id', true) AS company, current_user AS role`);
      expect(rows).toEqual([{ company: '', role: expect.not.stringContaining('_app') }]);
    } finally {
      await runner.release();
    }
  });

  it('takes a statement in every form pg does: values apart or in a config object, row mode, a callback', async () => {
    const runner = db.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      await runAsCompany('A', async () => {
        expect((await client.query({ text: 'SELECT $1::int AS n, current_setting($2, true) AS company', values: [5, 'app.company_id'] })).rows).toEqual([{ n: 5, company: 'A' }]);
        expect((await client.query({ text: 'SELECT 1 AS a, 2 AS b', rowMode: 'array' })).rows).toEqual([[1, 2]]);
        const viaCallback = await new Promise((resolve, reject) =>
          client.query('SELECT count(*)::int AS n FROM things WHERE name = $1', ['a1'], (error, result) => (error ? reject(error) : resolve(result.rows))),
        );
        expect(viaCallback).toEqual([{ n: 1 }]);
      });
    } finally {
      await runner.release();
    }
  });

  it('rolls a failed lone statement back with its settings, and the connection goes on', async () => {
    await runAsCompany('A', async () => {
      await expect(db.query(`INSERT INTO things (company_id, name) VALUES ($1, 'planted')`, ['B'])).rejects.toMatchObject({ code: '44000' });
      await expect(db.query(`SELECT no_such_column FROM things`)).rejects.toMatchObject({ code: '42703' });
      expect(await db.query(`SELECT count(*)::int AS n FROM things`)).toEqual([{ n: 2 }]);
    });
  });

  it('answers right on a connection whose session others change or reset between transactions (a transaction-mode pooler)', async () => {
    // One connection shared by every scope, as a pooler's server session is shared by its clients;
    // between transactions it is left bound to another company at session level, or reset.
    const shared = createDataSource({ url: runtimeUrl, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-pooler', poolSize: 1, tenantIsolation: true });
    await shared.initialize();
    const role = tenantRoleName(database.name);
    const disturbances = [
      () => shared.query(`SELECT set_config('role', $1, false), set_config('app.company_id', 'B', false)`, [role]),
      () => shared.query(`DISCARD ALL`),
      () => shared.query(`SELECT set_config('app.company_id', 'A', false)`),
    ];
    try {
      const wrong: string[] = [];
      for (let i = 0; i < 60; i++) {
        await disturbances[i % disturbances.length]!();
        const scope = ['A', 'B', 'service', ''][i % 4]!;
        const read = () => shared.query<Array<{ company_id: string }>>(`SELECT DISTINCT company_id FROM things ORDER BY 1`);
        const seen = scope === 'service'
          ? await runAsService(read)
          : await runAsCompany(scope, () => (i % 3 === 0 ? shared.transaction((tx) => tx.query(`SELECT DISTINCT company_id FROM things ORDER BY 1`)) : read()));
        const expected = scope === 'service' ? ['A', 'B'] : scope ? [scope] : [];
        const got = (seen as Array<{ company_id: string }>).map((row) => row.company_id);
        if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push(`${i} ${scope}: ${got.join(',')}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      await shared.destroy();
    }
  });

  describe('lone statements marked prepared()', () => {
    const marked = prepared(`SELECT company_id, count(*)::int AS n, current_setting('statement_timeout') AS timeout FROM things WHERE name <> $1 GROUP BY 1 ORDER BY 1`);
    const name = preparedStatementName(marked)!;
    /**
     * What the one connection of `source` has prepared, read straight on its session (pg's own
     * query): its statements, or with `settings` its settings statements (one per shape of scope) too.
     */
    const preparedOn = async (source: DataSource, which: 'statements' | 'settings too' = 'statements') => {
      const runner = source.createQueryRunner();
      try {
        const client = (await runner.connect()) as PoolClient;
        const plainQuery = pg.Client.prototype.query as unknown as (this: PoolClient, text: string) => Promise<{ rows: Array<{ name: string }> }>;
        const only = which === 'statements' ? `WHERE statement NOT LIKE '%set_config(%'` : '';
        return (await plainQuery.call(client, `SELECT name FROM pg_prepared_statements ${only} ORDER BY name`)).rows.map((row) => row.name);
      } finally {
        await runner.release();
      }
    };
    const onePool = (preparedStatements?: boolean) =>
      createDataSource({ url: runtimeUrl, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-prepared', poolSize: 1, tenantIsolation: true, preparedStatements });
    const countsOf = (rows: Array<{ company_id: string; n: number }>) => rows.map((row) => `${row.company_id}:${row.n}`);

    it('are parsed once per connection, then sent with their settings in one exchange, each scope seeing its own company', async () => {
      const shared = onePool();
      await shared.initialize();
      const sent = jest.spyOn(pg.Client.prototype, 'query');
      // A named statement is shown by its name; the settings statement, prepared once per shape of scope, as `settings`.
      const wire = () =>
        sent.mock.calls.map(([query]) => {
          if (typeof query === 'string') return query;
          const config = query as unknown as { constructor: unknown; name?: string; text: string };
          if (config.constructor !== Object) return (query as object).constructor.name;
          return config.text.includes('set_config(') ? 'settings' : `named ${config.name}`;
        });
      try {
        // First use: prepared inside a transaction of its own (BEGIN with the settings, the statement, COMMIT).
        const first = await runAsCompany('A', () => shared.query(marked, ['none']));
        expect(first).toEqual([{ company_id: 'A', n: 2, timeout: '30s' }]);
        expect(wire()).toEqual([expect.stringMatching(/^BEGIN;\s*SELECT set_config\('statement_timeout'.*'app\.company_id', 'A'/s), `named ${name}`, 'COMMIT']);
        // Then one exchange, the statement's Parse left out; every scope bound as before. The
        // settings statement is prepared once per shape of scope (a company's, the service's).
        const cases = [['B', ['B:3'], true], ['A', ['A:2'], false], ['', [], false], ['service', ['A:2', 'B:3'], true], ['B', ['B:3'], false]] as const;
        for (const [scope, expected, settingsFirst] of cases) {
          sent.mockClear();
          const rows = await (scope === 'service' ? runAsService(() => shared.query(marked, ['none'])) : runAsCompany(scope, () => shared.query(marked, ['none'])));
          expect(countsOf(rows)).toEqual(expected);
          expect(wire()).toEqual([...(settingsFirst ? ['settings'] : []), 'WithTransactionSettings']);
        }
        sent.mockRestore();
        expect(await preparedOn(shared)).toEqual([name]);
        expect(await preparedOn(shared, 'settings too')).toHaveLength(3);
      } finally {
        sent.mockRestore();
        await shared.destroy();
      }
    });

    it('are not prepared when switched off (DATABASE_PREPARED_STATEMENTS=false), nor inside a transaction', async () => {
      const off = onePool(false);
      const on = onePool(true);
      await Promise.all([off.initialize(), on.initialize()]);
      try {
        expect(countsOf(await runAsCompany('B', () => off.query(marked, ['b1'])))).toEqual(['B:2']);
        expect(await preparedOn(off, 'settings too')).toEqual([]);
        const inTransaction = await runAsCompany('B', () => on.transaction((tx) => tx.query(marked, ['b1'])));
        expect(countsOf(inTransaction)).toEqual(['B:2']);
        expect(await preparedOn(on)).toEqual([]);
      } finally {
        await Promise.all([off.destroy(), on.destroy()]);
      }
    });

    it('are prepared again when the session lost them (DISCARD ALL, a pooler that keeps none), and no longer after three losses', async () => {
      const shared = onePool();
      await shared.initialize();
      const warnings = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
      try {
        const wrong: string[] = [];
        for (let loss = 0; loss < 5; loss++) {
          const rows = await runAsCompany('A', () => shared.query(marked, ['a1']));
          if (JSON.stringify(countsOf(rows)) !== JSON.stringify(['A:1'])) wrong.push(`${loss}: ${countsOf(rows).join(',')}`);
          expect(await preparedOn(shared)).toEqual(loss < 3 ? [loss === 0 ? name : `${name}_${loss}`] : []);
          // Once it stopped (the third loss), a session wiped again gets nothing prepared, settings included.
          if (loss >= 4) expect(await preparedOn(shared, 'settings too')).toEqual([]);
          await shared.query('DISCARD ALL');
        }
        expect(wrong).toEqual([]);
        // Told once, with what to set.
        expect(warnings).toHaveBeenCalledTimes(1);
        expect(warnings).toHaveBeenCalledWith(expect.stringContaining('DATABASE_PREPARED_STATEMENTS=false'), { code: 'ERP_PREPARED_STATEMENTS_LOST' });
      } finally {
        warnings.mockRestore();
        await shared.destroy();
      }
    });

    it('are prepared under another name when the session has one of theirs from another client (42P05, a pooler that keeps none)', async () => {
      const shared = onePool();
      await shared.initialize();
      try {
        // Another client's statement of the same name on this server session, as such a pooler leaves it.
        const runner = shared.createQueryRunner();
        try {
          const client = (await runner.connect()) as PoolClient;
          const plainQuery = pg.Client.prototype.query as unknown as (this: PoolClient, text: string) => Promise<unknown>;
          await plainQuery.call(client, `PREPARE "${name}" AS SELECT 1`);
        } finally {
          await runner.release();
        }
        expect(countsOf(await runAsCompany('A', () => shared.query(marked, ['a1'])))).toEqual(['A:1']);
        expect(await preparedOn(shared)).toEqual([name, `${name}_1`]);
      } finally {
        await shared.destroy();
      }
    });

    it('fail as any statement does, at first use or later, and the connection goes on', async () => {
      const shared = onePool();
      await shared.initialize();
      const divide = prepared(`SELECT 10 / $1::int AS q, current_setting('app.company_id', true) AS company`);
      try {
        await runAsCompany('A', async () => {
          expect(sqlStateOf(await failure(shared.query(divide, [0])))).toBe('22012');
          expect(await shared.query(divide, [2])).toEqual([{ q: 5, company: 'A' }]);
          expect(sqlStateOf(await failure(shared.query(divide, [0])))).toBe('22012');
          expect(sqlStateOf(await failure(shared.query(prepared(`SELECT no_such_column FROM things WHERE name = $1`), ['a1'])))).toBe('42703');
          expect(await shared.query(divide, [5])).toEqual([{ q: 2, company: 'A' }]);
        });
        expect(await preparedOn(shared)).toEqual([preparedStatementName(divide)]);
      } finally {
        await shared.destroy();
      }
    });
  });

  it('binds through TypeORM\'s own driver option: a DataSource created without tenantIsolation is refused', async () => {
    const unbound = createDataSource({ url: database.url, entities: [], migrations: [], applicationName: 'tenancy-test' });
    await unbound.initialize();
    try {
      await expect(verifyTenantBinding(unbound)).rejects.toThrow(/without tenantIsolation/);
      // And it really is unbound: a company scope does not limit it.
      await runAsCompany('A', async () => expect(await unbound.query(`SELECT count(*)::int AS n FROM things`)).toEqual([{ n: 5 }]));
    } finally {
      await unbound.destroy();
    }
    expect(await verifyTenantBinding(db)).toEqual({ role: tenantRoleName(database.name), serviceRole: serviceRoleName(database.name), privileged: [] });
  });

  it('lists tenant tables left outside the wall', async () => {
    expect(await unprotectedTenantTables((text) => db.query(text))).toEqual([]);
    // Created as a migration would, by the owner.
    const asOwner = (text: string) => withAdminClient(database.url, (client) => client.query(text));
    await asOwner(`CREATE TABLE forgotten (company_id varchar(64) NOT NULL)`);
    try {
      expect(await unprotectedTenantTables((text) => db.query(text))).toEqual(['forgotten']);
    } finally {
      await asOwner(`DROP TABLE forgotten`);
    }
  });

  it('never lets the request role touch the migrations table', async () => {
    await runAsCompany('A', async () => {
      expect(sqlStateOf(await failure(db.query(`SELECT count(*) FROM migrations`)))).toBe('42501');
    });
  });

  it('drops the roles with the database; the down migrations remove the service role, then views and role', async () => {
    const scratch = await createScratchDatabase('tenancy_down');
    const roles = [tenantRoleName(scratch.name), serviceRoleName(scratch.name)];
    const rolesThere = () =>
      withAdminClient(scratch.serverUrl, async (client) =>
        (await client.query<{ rolname: string }>(`SELECT rolname FROM pg_roles WHERE rolname = ANY($1) ORDER BY 1`, [roles])).rows.map((row) => row.rolname),
      );
    await migrateDatabase({ url: scratch.url, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-test' });
    expect(await rolesThere()).toEqual([...roles].sort());
    // The owner undoes migrations; a service's DataSource (tenantIsolation) checks what is left.
    const owner = createDataSource({ url: scratch.url, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-test', purpose: 'migrations' });
    const service = createDataSource({ url: scratch.url, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-test', tenantIsolation: true });
    await owner.initialize();
    await service.initialize();
    try {
      await owner.undoLastMigration();
      expect(await rolesThere()).toEqual([tenantRoleName(scratch.name)]);
      await expect(verifyTenantBinding(service)).rejects.toThrow(/cannot run as .*does not exist/);
      await owner.undoLastMigration();
      expect(await unprotectedTenantTables((text) => owner.query(text))).toEqual(['thing_parts', 'things']);
      expect(await rolesThere()).toEqual([]);
      await owner.runMigrations();
    } finally {
      await service.destroy();
      await owner.destroy();
    }
    await scratch.drop();
    expect(await rolesThere()).toEqual([]);
  });

  describe('DatabaseModule({ tenantIsolation: true })', () => {
    /** Stands in for @erp/auth's AuthGuard: the company from a header, as `request.auth`. */
    @Injectable()
    class HeaderAuthGuard implements CanActivate {
      canActivate(context: ExecutionContext): boolean {
        const request = context.switchToHttp().getRequest<{ headers: Record<string, string>; auth?: { companyId: string } }>();
        const company = request.headers['x-company'];
        if (company) request.auth = { companyId: company };
        return true;
      }
    }

    @Controller()
    class ThingsController {
      constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

      /** The bug this defends against: no company filter. */
      @Get('things')
      async names(): Promise<string[]> {
        const rows = await this.dataSource.query<Array<{ name: string }>>(`SELECT name FROM things ORDER BY name`);
        return rows.map((row) => row.name);
      }
    }

    let app: NestFastifyApplication;
    let baseUrl: string;

    beforeAll(async () => {
      @Module({
        imports: [
          DatabaseModule.forRoot({ url: runtimeUrl, entities: [], migrations: MIGRATIONS, applicationName: 'tenancy-nest', tenantIsolation: true }),
        ],
        controllers: [ThingsController],
        providers: [{ provide: APP_GUARD, useClass: HeaderAuthGuard }],
      })
      class AppModule {}
      app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: false });
      await app.listen(0, '127.0.0.1');
      baseUrl = await app.getUrl();
    });

    afterAll(async () => {
      await app?.close();
    });

    const get = async (company?: string) => {
      const response = await fetch(`${baseUrl}/things`, { headers: company ? { 'x-company': company } : {} });
      expect(response.status).toBe(200);
      return (await response.json()) as string[];
    };

    it('limits each request to its company, and a request without one to nothing', async () => {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => ['A', 'B', undefined][i % 3]).map(async (c) => ({ c, names: await get(c) })));
      for (const { c, names } of answers) {
        expect(names).toEqual(c === 'A' ? ['a1', 'a2'] : c === 'B' ? ['b1', 'b2', 'b3'] : []);
      }
    });

    it('refuses to start when the migrations did not create the role', async () => {
      const bare = await createScratchDatabase('tenancy_bare');
      @Module({
        imports: [DatabaseModule.forRoot({ url: bare.url, entities: [], migrations: [], applicationName: 'tenancy-nest', tenantIsolation: true })],
      })
      class BareModule {}
      try {
        await expect(NestFactory.createApplicationContext(BareModule, { logger: false, abortOnError: false })).rejects.toThrow(
          /does not exist/,
        );
      } finally {
        await bare.drop();
      }
    });
  });
});
