import { Client } from 'pg';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { withAdminClient } from '../admin/database-admin';
import { ensureRuntimeLogin, grantRuntimeLogin } from '../admin/runtime-login';
import { createDataSource } from '../data-source/create-data-source';
import { enableServiceRoleV1 } from '../migrations/history/service-role.v1';
import { enableTenantViewsV1 } from '../migrations/history/tenant-views.v1';
import { migrateDatabase } from '../migrations/run-migrations';
import { createScratchDatabase } from '../test-support/scratch-database';
import { verifyTenantBinding } from './tenant-binding';
import { serviceRoleName, tenantRoleName } from './tenant-role';
import { runAsCompany, runAsService } from './tenant-scope';

class CreateLedger1700000000401 implements MigrationInterface {
  name = 'CreateLedger1700000000401';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ledger (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, company_id varchar(64) NOT NULL, amount int NOT NULL)`);
    await enableTenantViewsV1(q, ['ledger'], []);
    await enableServiceRoleV1(q);
  }
  async down(): Promise<void> {
    // A scratch database, dropped whole.
  }
}

const INSUFFICIENT_PRIVILEGE = '42501';

async function sqlStateOf(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'no error';
}

/**
 * Issue 40: the login a service connects as owns nothing and can act only as its two roles, so
 * neither a bug nor an injected statement runs as the owner of the database or leaves the tenant
 * wall (docs/platform-teams.md, "Database logins").
 */
describe('the runtime login (libs/database)', () => {
  let database: Awaited<ReturnType<typeof createScratchDatabase>>;
  let runtimeUrl: string;
  /** A raw session as the runtime login: what an injected statement gets. */
  let raw: Client;
  /** The service's own DataSource, as the runtime login. */
  let db: DataSource;
  const extraRoles: string[] = [];
  const asAdmin = <T>(work: (client: Client) => Promise<T>) => withAdminClient(database.url, work);

  beforeAll(async () => {
    database = await createScratchDatabase('runtime_login');
    await migrateDatabase({ url: database.url, entities: [], migrations: [CreateLedger1700000000401], applicationName: 'runtime-login-test' });
    runtimeUrl = await ensureRuntimeLogin(database.serverUrl, database.name);
    await asAdmin((client) => client.query(`INSERT INTO ledger (company_id, amount) VALUES ('A', 1), ('B', 2), ('B', 3)`));
    raw = new Client({ connectionString: runtimeUrl });
    await raw.connect();
    db = createDataSource({ url: runtimeUrl, entities: [], migrations: [], applicationName: 'runtime-login-test', tenantIsolation: true });
    await db.initialize();
  });

  afterAll(async () => {
    await raw?.end();
    await db?.destroy();
    if (database) {
      await asAdmin(async (client) => {
        for (const role of extraRoles) await client.query(`DROP OWNED BY ${client.escapeIdentifier(role)}`).catch(() => undefined);
      });
      await database.drop();
      await withAdminClient(database.serverUrl, async (client) => {
        for (const role of extraRoles) await client.query(`DROP ROLE IF EXISTS ${client.escapeIdentifier(role)}`);
      });
    }
  });

  it('reads nothing as itself: its session reaches no table until a transaction sets one of its roles', async () => {
    expect(await sqlStateOf(raw.query(`SELECT * FROM public.ledger`))).toBe(INSUFFICIENT_PRIVILEGE);
    expect(await sqlStateOf(raw.query(`SELECT * FROM migrations`))).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it.each([
    ['ALTER', `ALTER TABLE public.ledger ADD COLUMN planted int`],
    ['DROP', `DROP TABLE public.ledger`],
    ['TRUNCATE', `TRUNCATE public.ledger`],
    ['CREATE a table', `CREATE TABLE public.planted (id int)`],
    ['CREATE a schema', `CREATE SCHEMA planted`],
    ['CREATE a role', `CREATE ROLE planted`],
    ['DROP the views', `DROP SCHEMA "${'{app}'}" CASCADE`],
  ])('cannot %s, as itself or as either of its roles', async (_what, template) => {
    const statement = template.replace('{app}', tenantRoleName(database.name));
    for (const role of ['none', tenantRoleName(database.name), serviceRoleName(database.name)]) {
      await raw.query('BEGIN');
      try {
        await raw.query(`SELECT set_config('role', $1, true)`, [role]);
        expect([role, await sqlStateOf(raw.query(statement))]).toEqual([role, INSUFFICIENT_PRIVILEGE]);
      } finally {
        await raw.query('ROLLBACK');
      }
    }
    expect(await asAdmin((client) => client.query(`SELECT count(*)::int AS n FROM ledger`).then((r) => r.rows))).toEqual([{ n: 3 }]);
  });

  it('cannot leave the wall from a company scope: RESET ROLE, SET ROLE NONE, then read another company rows', async () => {
    for (const leave of ['RESET ROLE', 'SET ROLE NONE', `SELECT set_config('role', 'none', true)`]) {
      const state = await runAsCompany('A', () =>
        db.transaction(async (tx) => {
          expect(await tx.query(`SELECT count(*)::int AS n FROM ledger`)).toEqual([{ n: 1 }]);
          await tx.query(leave);
          return sqlStateOf(tx.query(`SELECT company_id FROM public.ledger WHERE company_id = 'B'`));
        }).catch((error: { code?: string }) => error.code),
      );
      expect([leave, state]).toEqual([leave, INSUFFICIENT_PRIVILEGE]);
    }
  });

  it('cannot SET ROLE to the owner of the tables (or any role but its two)', async () => {
    const owner = await asAdmin((client) => client.query<{ owner: string }>(`SELECT tableowner AS owner FROM pg_tables WHERE tablename = 'ledger'`).then((r) => r.rows[0]!.owner));
    for (const role of [owner, 'pg_read_all_data', 'pg_write_all_data']) {
      await raw.query('BEGIN');
      try {
        expect([role, await sqlStateOf(raw.query(`SET LOCAL ROLE ${raw.escapeIdentifier(role)}`))]).toEqual([role, INSUFFICIENT_PRIVILEGE]);
      } finally {
        await raw.query('ROLLBACK');
      }
    }
  });

  it('does its work through its roles: a company scope its company rows, the service scope every company rows without DDL', async () => {
    expect(await runAsCompany('B', () => db.query(`SELECT sum(amount)::int AS total FROM ledger`))).toEqual([{ total: 5 }]);
    expect(await runAsService(() => db.query(`SELECT count(*)::int AS n FROM ledger`))).toEqual([{ n: 3 }]);
    await runAsService(() => db.query(`UPDATE ledger SET amount = amount WHERE company_id = 'A'`));
    // Which migrations ran, for the schema gate; not a write.
    expect(await runAsService(() => db.query(`SELECT count(*)::int AS n FROM migrations`))).toEqual([{ n: 1 }]);
    expect(await sqlStateOf(runAsService(() => db.query(`DELETE FROM migrations`)))).toBe(INSUFFICIENT_PRIVILEGE);
  });

  it('passes the start-up check with nothing privileged; the owner passes it flagged', async () => {
    expect((await verifyTenantBinding(db)).privileged).toEqual([]);
    const asOwner = createDataSource({ url: database.url, entities: [], migrations: [], applicationName: 'runtime-login-test', tenantIsolation: true });
    await asOwner.initialize();
    try {
      expect((await verifyTenantBinding(asOwner)).privileged).toContain('it is a superuser');
    } finally {
      await asOwner.destroy();
    }
  });

  it('keeps logging in on a cluster whose login an earlier start made with another password (npm start, issue 48)', async () => {
    // A login of its own: the shared one serves every test worker of the run meanwhile.
    const login = `${database.name}_kept`;
    extraRoles.push(login);
    await asAdmin((client) => client.query(`CREATE ROLE ${client.escapeIdentifier(login)} LOGIN NOINHERIT PASSWORD 'from-an-earlier-port'`));
    const url = await ensureRuntimeLogin(database.serverUrl, database.name, login);
    const again = await Promise.all(Array.from({ length: 8 }, () => ensureRuntimeLogin(database.serverUrl, database.name, login)));
    expect(new Set(again)).toEqual(new Set([url]));
    const session = new Client({ connectionString: url });
    await session.connect();
    try {
      expect((await session.query<{ me: string }>(`SELECT current_user AS me`)).rows).toEqual([{ me: login }]);
    } finally {
      await session.end();
    }
  });

  it('is refused by the migration grant when it could leave the wall', async () => {
    const name = (what: string) => {
      const role = `${database.name}_${what}`;
      extraRoles.push(role);
      return role;
    };
    const version = await asAdmin((client) => client.query<{ v: number }>(`SELECT current_setting('server_version_num')::int AS v`).then((r) => r.rows[0]!.v));
    const cases: Array<[string, string, RegExp | null]> = [
      [name('super'), 'LOGIN SUPERUSER NOINHERIT', /superuser/],
      [name('creator'), 'LOGIN CREATEROLE NOINHERIT', /CREATEROLE/],
      [name('nologin'), 'NOLOGIN NOINHERIT', /cannot log in/],
      [name('owner'), 'LOGIN NOINHERIT', /owns 1 object/],
      // PostgreSQL 16 grants without inheritance instead; before it the login must not inherit.
      [name('inherits'), 'LOGIN INHERIT', version >= 160_000 ? null : /inherits its roles/],
      [name('good'), 'LOGIN NOINHERIT', null],
    ];
    await asAdmin(async (client) => {
      for (const [role, attributes] of cases) await client.query(`CREATE ROLE ${client.escapeIdentifier(role)} ${attributes}`);
      await client.query(`CREATE TABLE owned_by_login (id int)`);
      await client.query(`ALTER TABLE owned_by_login OWNER TO ${client.escapeIdentifier(cases[3]![0])}`);
    });
    for (const [role, , refusal] of cases) {
      const granted = grantRuntimeLogin(database.url, role);
      if (refusal) await expect(granted).rejects.toThrow(refusal);
      else await expect(granted).resolves.toBeUndefined();
    }
    await expect(grantRuntimeLogin(database.url, name('missing'))).rejects.toThrow(/no such role/);
    const user = decodeURIComponent(new URL(database.url).username || 'postgres');
    await expect(grantRuntimeLogin(database.url, user)).rejects.toThrow(/role that migrates|superuser/);
    await asAdmin((client) => client.query(`DROP TABLE owned_by_login`));
  });
});
