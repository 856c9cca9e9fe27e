import { randomBytes } from 'node:crypto';

import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';

import { testServerUrl } from '../test-support/scratch-database';
import { COMPANY_SETTING, tenantRoleName } from '../tenancy/tenant-role';
import { enableTenantViewsV1 } from '../migrations/history/tenant-views.v1';
import { unprotectedTenantTables } from '../tenancy/tenant-tables';
import { cloneDatabase, dropDatabase, ensureTemplateDatabase } from './database-admin';
import { databaseUrlFor } from './database-url';

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** What a service's migrations do: a tenant table, its request role and the tenant view. */
async function migrateLikeAService(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(`CREATE TABLE migrations (id serial PRIMARY KEY)`);
    await client.query(`CREATE TABLE notes (id serial PRIMARY KEY, company_id text NOT NULL, body text NOT NULL)`);
    // enableTenantViewsV1 only calls query(); a pg client answers it as a QueryRunner would.
    const runner = { query: async (sql: string) => (await client.query(sql)).rows } as unknown as QueryRunner;
    await enableTenantViewsV1(runner, ['notes'], []);
    await client.query(`INSERT INTO notes (company_id, body) VALUES ('A', 'a1'), ('A', 'a2'), ('B', 'b1')`);
  });
}

/** A request scope's transaction on `url`, as the binding opens it: role, company, search_path. */
async function readAsCompany(url: string, database: string, company: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const role = client.escapeIdentifier(tenantRoleName(database));
    await client.query('BEGIN');
    await client.query(`SET LOCAL ROLE ${role}`);
    await client.query(`SELECT set_config($1, $2, true), set_config('search_path', $3, true)`, [COMPANY_SETTING, company, `${role}, public`]);
    const { rows } = await client.query<{ body: string }>('SELECT body FROM notes ORDER BY body');
    await client.query('ROLLBACK');
    return rows.map((row) => row.body);
  });
}

describe('ensureTemplateDatabase / cloneDatabase', () => {
  const serverUrl = testServerUrl();
  let template: string;
  const made: string[] = [];

  beforeEach(() => {
    template = `test_tpl_${randomBytes(5).toString('hex')}`;
    made.push(template);
  });

  afterAll(async () => {
    // Copies first: the template's request role holds the copies' grants until they are gone.
    for (const name of made.reverse()) await dropDatabase(serverUrl, name);
  });

  it('prepares the template once when several callers ask for it at once', async () => {
    let prepared = 0;
    const prepare = async (url: string) => {
      prepared++;
      await migrateLikeAService(url);
    };

    await Promise.all(Array.from({ length: 4 }, () => ensureTemplateDatabase(serverUrl, template, prepare)));

    expect(prepared).toBe(1);
  });

  it('leaves no half-made template when preparing it fails, so the next caller prepares it again', async () => {
    await expect(
      ensureTemplateDatabase(serverUrl, template, async () => {
        throw new Error('migration failed');
      }),
    ).rejects.toThrow('migration failed');

    let prepared = 0;
    await ensureTemplateDatabase(serverUrl, template, async (url) => {
      prepared++;
      await migrateLikeAService(url);
    });
    expect(prepared).toBe(1);
  });

  it('makes again a template that a process killed while preparing it left half-made', async () => {
    await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(template)}`));

    let prepared = 0;
    await ensureTemplateDatabase(serverUrl, template, async (url) => {
      prepared++;
      await migrateLikeAService(url);
    });
    await ensureTemplateDatabase(serverUrl, template, async () => {
      prepared++;
    });

    expect(prepared).toBe(1);
  });

  it("copies the template's tables and rows, and gives the copy a request role that the wall limits to one company", async () => {
    await ensureTemplateDatabase(serverUrl, template, migrateLikeAService);
    const copy = `test_copy_${randomBytes(5).toString('hex')}`;
    made.push(copy);

    const url = await cloneDatabase(serverUrl, template, copy);

    expect(await readAsCompany(url, copy, 'A')).toEqual(['a1', 'a2']);
    // The copy's role cannot bypass row-level security either, and the copy is its own database.
    await withClient(url, async (client) => {
      const { rows } = await client.query<{ bypass: boolean }>('SELECT rolbypassrls AS bypass FROM pg_roles WHERE rolname = $1', [
        tenantRoleName(copy),
      ]);
      expect(rows).toEqual([{ bypass: false }]);
      await client.query(`INSERT INTO notes (company_id, body) VALUES ('A', 'only in the copy')`);
    });
    const inTemplate = await withClient(databaseUrlFor(serverUrl, template), (client) => client.query('SELECT 1 FROM notes WHERE body = $1', ['only in the copy']));
    expect(inTemplate.rowCount).toBe(0);
  });

  it("gives the copy its own role's schema, so its request scope reads through the views and the wall has no gap", async () => {
    await ensureTemplateDatabase(serverUrl, template, migrateLikeAService);
    const copy = `test_copy_${randomBytes(5).toString('hex')}`;
    made.push(copy);

    const url = await cloneDatabase(serverUrl, template, copy);

    expect(await readAsCompany(url, copy, 'B')).toEqual(['b1']);
    await withClient(url, async (client) => {
      expect(await unprotectedTenantTables(async (text) => (await client.query(text)).rows)).toEqual([]);
    });
  });

  it('drops the copy together with its request role', async () => {
    await ensureTemplateDatabase(serverUrl, template, migrateLikeAService);
    const copy = `test_copy_${randomBytes(5).toString('hex')}`;
    await cloneDatabase(serverUrl, template, copy);

    await dropDatabase(serverUrl, copy);

    const roles = await withClient(serverUrl, (client) => client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [tenantRoleName(copy)]));
    expect(roles.rowCount).toBe(0);
  });
});
