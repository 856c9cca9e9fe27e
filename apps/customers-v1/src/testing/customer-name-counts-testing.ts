import type { Client } from 'pg';
import { expectWalkMatchesOracle } from '@erp/testing';
import { customerOracleList } from './customer-list-oracle';
import { NameCountScheduler } from '../name-counts/name-count-scheduler';
import { startCustomersTestApp, type CustomersTestApp } from './customers-test-app';

/** The companies, thresholds and rows the name-count suites share. */
export const NAME_COMPANY = '1000001';
export const NAME_OTHER = '2000002';
export const NAME_MIN_MATCHES = 50;
export const NAME_PER_COMPANY = 4;

/** The settings of the name-count suites' apps (and of a second replica of one). */
export const NAME_COUNTS_ENV = {
  CUSTOMER_MAX_PAGE_SIZE: '1000',
  CUSTOMER_NAME_COUNT_MIN_MATCHES: String(NAME_MIN_MATCHES),
  CUSTOMER_NAME_COUNTS_PER_COMPANY: String(NAME_PER_COMPANY),
  CUSTOMER_NAME_COUNT_REPLACE_INTERVAL_MS: '0',
};

/**
 * customers-v1 with name counts from 50 matches, 4 per company, no limit on replacements (the suites
 * replace fragments one after another; a test turns it on), and 22k rows over six id buckets of 2^12
 * and many time buckets, every tenth of another company; names with "bygg" (any case), and with
 * LIKE's wildcards % and _ as plain characters.
 */
export async function startNameCountsApp(): Promise<CustomersTestApp> {
  const t = await startCustomersTestApp(NAME_COUNTS_ENV);
  await t.sql.query(
    `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
     SELECT CASE WHEN i % 10 = 0 THEN $2 ELSE $1 END, 'N' || lpad(i::text, 6, '0'),
            CASE WHEN i % 7 = 0 THEN 'Nordbygg ' WHEN i % 11 = 0 THEN '100% BYGG_' WHEN i % 13 = 0 THEN 'Bygg_Co ' ELSE 'Customer ' END || i,
            (ARRAY['Active', 'Active', 'Active', 'Inactive', 'OnHold'])[1 + abs(hashint4(i)) % 5],
            created, CASE WHEN abs(hashint4(i * 7)) % 3 = 0 THEN created + (abs(hashint4(i * 13)) % 900) * interval '1 day' ELSE created END
     FROM generate_series(1, 22000) AS i, LATERAL (SELECT timestamptz '2024-01-01T00:00:00Z' + i * interval '40 minutes' + (i % 1000) * interval '1 millisecond' AS created) c
     ORDER BY i`,
    [NAME_COMPANY, NAME_OTHER],
  );
  return t;
}

/** One request with the name filter (its exact count may register the fragment), then the registration settled. */
export async function searchName(
  t: CustomersTestApp,
  headers: Record<string, string>,
  name: string,
): Promise<number | undefined> {
  const response = await t.http.request(`/v1/customer?${new URLSearchParams({ name, pageSize: '1' })}`, {
    headers,
  });
  expect(response.status).toBe(200);
  const records = (await response.json()) as Array<{ metadata: { totalCount: number } }>;
  await t.service.app.get(NameCountScheduler).settled();
  return records[0]?.metadata.totalCount;
}

/** The fragments whose counts reads use. */
export async function readyFragments(sql: Client, companyId: string): Promise<string[]> {
  const { rows } = await sql.query<{ fragment: string }>(
    `SELECT fragment FROM customer_name_fragments WHERE company_id = $1 AND state = 'ready' ORDER BY fragment`,
    [companyId],
  );
  return rows.map((r) => r.fragment);
}

/** Every registered fragment's cells must equal a fresh count of the names that contain it, cell by cell. */
export async function expectNameCellsExact(sql: Client): Promise<void> {
  const { rows } = await sql.query(
    `SELECT k.*, b.row_count AS kept FROM (
       SELECT f.company_id, f.id AS fragment_id, c.status, customer_name_id_bucket(c.internal_id) AS id_bucket,
              customer_name_time_bucket(c.last_modified_at) AS modified_bucket, customer_name_time_bucket(c.created_at) AS created_bucket, count(*)::int AS counted
       FROM customer_name_fragments f JOIN customers c ON c.company_id = f.company_id AND position(f.fragment IN lower(c.name)) > 0
       GROUP BY 1, 2, 3, 4, 5, 6) k
     FULL JOIN (SELECT * FROM customer_name_cells WHERE row_count <> 0) b USING (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket)
     WHERE coalesce(k.counted, 0) <> coalesce(b.row_count, 0)`,
  );
  expect(rows).toEqual([]);
}

/** The cell function of each database as the migrations left it (definition and `SELECT` body), read before the first change. */
const migratedBucketFunction = new Map<string, { definition: string; body: string }>();

/**
 * Makes the registration's backfill, and only it, slow (2 ms a matching row) or fail: the cell
 * function sleeps (or raises) in read-only transactions, which is what the backfill's snapshot is
 * and no write is. It computes the bucket with the migrated body, whose width stays the schema's;
 * `normal` restores it.
 */
export async function setBackfill(sql: Client, mode: 'slow' | 'failing' | 'normal'): Promise<void> {
  const database = (await sql.query<{ name: string }>(`SELECT current_database() AS name`)).rows[0].name;
  let migrated = migratedBucketFunction.get(database);
  if (migrated === undefined) {
    const { rows } = await sql.query<{ definition: string; body: string }>(
      `SELECT pg_get_functiondef(p.oid) AS definition, p.prosrc AS body FROM pg_proc p WHERE p.oid = 'customer_name_time_bucket(timestamptz)'::regprocedure`,
    );
    migrated = rows[0];
    migratedBucketFunction.set(database, migrated);
  }
  const inBackfill = mode === 'slow' ? 'PERFORM pg_sleep(0.001);' : `RAISE EXCEPTION 'backfill failed (test)';`;
  await sql.query(
    mode === 'normal'
      ? migrated.definition
      : `CREATE OR REPLACE FUNCTION customer_name_time_bucket(at timestamptz) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $slow$
         BEGIN
           IF current_setting('transaction_read_only') = 'on' THEN ${inBackfill} END IF;
           RETURN (${migrated.body});
         END $slow$`,
  );
}

/** Whether a session of the test database is in the slow backfill's sleep. */
export async function backfilling(sql: Client): Promise<boolean> {
  const { rows } = await sql.query(
    `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'`,
  );
  return rows.length > 0;
}

export async function waitForBackfill(sql: Client): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    if (await backfilling(sql)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the backfill never started');
}

/** The helpers above bound to a suite's app and headers (set in its beforeAll). */
export function nameCountHelpers(app: () => CustomersTestApp, headers: () => Record<string, string>) {
  return {
    search: (name: string, companyHeaders = headers()) => searchName(app(), companyHeaders, name),
    registered: (companyId = NAME_COMPANY) => readyFragments(app().sql, companyId),
    expectNameCellsExact: () => expectNameCellsExact(app().sql),
    /** Every page of `name=<name>` of the company against the plain SQL. */
    expectNameWalk: (
      companyId: string,
      companyHeaders: Record<string, string>,
      name: string,
      pageSize: number,
    ) =>
      expectWalkMatchesOracle(
        customerOracleList({
          http: app().http,
          sql: app().sql,
          companyId,
          headers: companyHeaders,
          filter: { name, query: { name } },
          pageSize,
        }),
      ),
  };
}
