/**
 * What row-level security would cost this service's list (RELIABILITY.md "Defence in depth"), and
 * what the per-connection tenant binding costs per request. Not a test: a measurement, run by hand:
 *
 *   node -r @swc-node/register apps/customers-v1/src/testing/row-security-cost.ts [serverUrl] [customers]
 *
 * Without a server URL it starts a throw-away embedded PostgreSQL. Creates its own databases.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCustomerListQuery, readCustomerPage } from '@erp/customers-queries';
import {
  createDataSource,
  dropDatabase,
  enableTenantIsolationV1,
  ensureDatabase,
  migrateDatabase,
  runAsCompany,
  startEmbeddedPostgres,
} from '@erp/database';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { CUSTOMERS_ENTITIES, CUSTOMERS_MIGRATIONS } from '../database';

const SAMPLES = 25;
const READS = 2000;

async function median(work: () => Promise<unknown>): Promise<string> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return `median ${samples[Math.floor(SAMPLES / 2)].toFixed(1)} ms, p90 ${samples[Math.floor(SAMPLES * 0.9)].toFixed(1)} ms`;
}

/** The customer list with and without a policy on `customers` and `customer_list_buckets`. */
async function listCost(serverUrl: string, size: number): Promise<void> {
  const name = `rls_cost_list_${Date.now()}`;
  const url = await ensureDatabase(serverUrl, name);
  const config = { url, entities: CUSTOMERS_ENTITIES, migrations: CUSTOMERS_MIGRATIONS, applicationName: 'rls-cost' };
  await migrateDatabase(config);
  const db = createDataSource(config);
  await db.initialize();
  let bound: DataSource | undefined;
  try {
    for (const [company, count] of [['big', size], ['other', Math.round(size / 5)]] as const) {
      await db.query(
        `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
         SELECT $1::text, 'N' || i, 'Customer ' || md5($1::text || i), CASE WHEN i % 5 = 0 THEN 'OnHold' ELSE 'Active' END, now(), now()
         FROM generate_series(1, $2::int) i`,
        [company, count],
      );
    }
    await db.query(`VACUUM ANALYZE customers`);
    const cases: Record<string, Record<string, string>> = {
      'status=Active, page 400': { status: 'Active', pageSize: '100', pageNumber: '400' },
      'name=abc, page 1': { name: 'abc', pageSize: '100', pageNumber: '1' },
    };
    const measure = async (label: string, through: DataSource = db) => {
      for (const [title, raw] of Object.entries(cases)) {
        const query = parseCustomerListQuery(raw, 1000);
        const figure = await median(() => runAsCompany('big', () => readCustomerPage((t, v) => through.query(t, v), 'big', query)));
        console.log(`list ${size} customers, ${label.padEnd(34)} ${title.padEnd(24)} ${figure}`);
      }
    };
    await measure('no row-level security');
    await applyPolicies(db, ['customers', 'customer_list_buckets']);
    // Bound connections come from a DataSource created with tenantIsolation (TypeORM's driver option).
    bound = createDataSource({ ...config, tenantIsolation: true });
    await bound.initialize();
    await measure('row-level security on customers', bound);
  } finally {
    await bound?.destroy();
    await db.destroy();
    await dropDatabase(serverUrl, name);
  }
}

async function applyPolicies(db: DataSource, tables: string[]): Promise<void> {
  const runner = db.createQueryRunner();
  try {
    await enableTenantIsolationV1(runner, tables);
  } finally {
    await runner.release();
  }
}

class CreateItems1700000000301 implements MigrationInterface {
  name = 'CreateItems1700000000301';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE items (company_id varchar(64) NOT NULL, number varchar(30) NOT NULL, name text, PRIMARY KEY (company_id, number))`);
    await q.query(`INSERT INTO items SELECT c, 'N' || i, 'x' FROM generate_series(1, 10000) i, unnest(ARRAY['A', 'B']) c`);
    await enableTenantIsolationV1(q, ['items']);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE items`);
  }
}

/** Sequential primary-key reads on a pool of one: no scope, one company, alternating companies. */
async function bindingCost(serverUrl: string): Promise<void> {
  const name = `rls_cost_bind_${Date.now()}`;
  const url = await ensureDatabase(serverUrl, name);
  const config = { url, entities: [], migrations: [CreateItems1700000000301], applicationName: 'rls-cost', poolSize: 1 };
  await migrateDatabase(config);
  const db = createDataSource({ ...config, tenantIsolation: true });
  await db.initialize();
  try {
    const run = async (label: string, companyOf: (i: number) => string | undefined) => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < READS; i++) {
        const company = companyOf(i);
        const read = () => db.query(`SELECT name FROM items WHERE company_id = $1 AND number = $2`, [company ?? 'A', `N${(i % 10000) + 1}`]);
        await (company === undefined ? read() : runAsCompany(company, read));
      }
      console.log(`binding: ${label.padEnd(38)} ${(Number(process.hrtime.bigint() - started) / 1e3 / READS).toFixed(0)} µs per read`);
    };
    for (let round = 0; round < 3; round++) {
      await run('no scope (owner, no RLS)', () => undefined);
      await run('one company', () => 'A');
      await run('alternating companies', (i) => (i % 2 ? 'A' : 'B'));
    }
  } finally {
    await db.destroy();
    await dropDatabase(serverUrl, name);
  }
}

async function main(): Promise<void> {
  const [serverArg, sizeArg] = process.argv.slice(2);
  const size = Number(sizeArg ?? 100_000);
  let stop = async () => undefined;
  let serverUrl = serverArg;
  if (!serverUrl) {
    const dataDir = await mkdtemp(join(tmpdir(), 'rls-cost-'));
    const server = await startEmbeddedPostgres({ dataDir, persistent: false });
    serverUrl = server.adminUrl;
    stop = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  try {
    await listCost(serverUrl, size);
    await bindingCost(serverUrl);
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
