import { Client } from 'pg';
import { expectPageMatchesOracle, expectWalkMatchesOracle, type OracleList, timeBucketStart } from '@erp/testing';
import { CustomerNameCounts } from './repository/customer-name-counts';
import { customerOracleList, expectedCustomerNumbers } from '../testing/customer-list-oracle';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const COMPANY = '1000001';
const OTHER = '2000002';
const PAGE_SIZE = 300;
const MIN_MATCHES = 50;
const PER_COMPANY = 4;
let t: CustomersTestApp;
let headers: Record<string, string>;

interface Filter {
  name: string;
  query: Record<string, string>;
}

const oracleList = (filter: Filter, companyId = COMPANY, pageSize = PAGE_SIZE): OracleList =>
  customerOracleList({ http: t.http, sql: t.sql, companyId, headers, filter, pageSize });

/** One request with the name filter (its exact count may register the fragment), then the registration settled. */
async function search(name: string, companyHeaders = headers): Promise<number | undefined> {
  const response = await t.http.request(`/v1/customer?${new URLSearchParams({ name, pageSize: '1' })}`, { headers: companyHeaders });
  expect(response.status).toBe(200);
  const records = (await response.json()) as Array<{ metadata: { totalCount: number } }>;
  await t.service.app.get(CustomerNameCounts).settled();
  return records[0]?.metadata.totalCount;
}

/** The fragments whose counts reads use. */
async function registered(companyId = COMPANY): Promise<string[]> {
  const { rows } = await t.sql.query<{ fragment: string }>(`SELECT fragment FROM customer_name_fragments WHERE company_id = $1 AND state = 'ready' ORDER BY fragment`, [companyId]);
  return rows.map((r) => r.fragment);
}

/** Every registered fragment's cells must equal a fresh count of the names that contain it, cell by cell. */
async function expectNameCellsExact(): Promise<void> {
  const { rows } = await t.sql.query(
    `SELECT k.*, b.row_count AS kept FROM (
       SELECT f.company_id, f.id AS fragment_id, c.status, c.internal_id >> 12 AS id_bucket,
              customer_name_time_bucket(c.last_modified_at) AS modified_bucket, customer_name_time_bucket(c.created_at) AS created_bucket, count(*)::int AS counted
       FROM customer_name_fragments f JOIN customers c ON c.company_id = f.company_id AND position(f.fragment IN lower(c.name)) > 0
       GROUP BY 1, 2, 3, 4, 5, 6) k
     FULL JOIN (SELECT * FROM customer_name_cells WHERE row_count <> 0) b USING (company_id, fragment_id, status, id_bucket, modified_bucket, created_bucket)
     WHERE coalesce(k.counted, 0) <> coalesce(b.row_count, 0)`,
  );
  expect(rows).toEqual([]);
}

describe('GET /v1/customer?name= from kept name counts', () => {
  let rowModified: string;
  const createdBoundary = timeBucketStart('2024-04-01T00:00:00Z', 19).toISOString().replace('Z', '');

  beforeAll(async () => {
    t = await startCustomersTestApp({
      CUSTOMER_MAX_PAGE_SIZE: '1000',
      CUSTOMER_NAME_COUNT_MIN_MATCHES: String(MIN_MATCHES),
      CUSTOMER_NAME_COUNTS_PER_COMPANY: String(PER_COMPANY),
    });
    headers = await t.auth.headers({ company: COMPANY });
    // 22k rows over six id buckets of 2^12 and many time buckets, every tenth of another company;
    // names with "bygg" (any case), and with LIKE's wildcards % and _ as plain characters.
    await t.sql.query(
      `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
       SELECT CASE WHEN i % 10 = 0 THEN $2 ELSE $1 END, 'N' || lpad(i::text, 6, '0'),
              CASE WHEN i % 7 = 0 THEN 'Nordbygg ' WHEN i % 11 = 0 THEN '100% BYGG_' WHEN i % 13 = 0 THEN 'Bygg_Co ' ELSE 'Customer ' END || i,
              (ARRAY['Active', 'Active', 'Active', 'Inactive', 'OnHold'])[1 + abs(hashint4(i)) % 5],
              created, CASE WHEN abs(hashint4(i * 7)) % 3 = 0 THEN created + (abs(hashint4(i * 13)) % 900) * interval '1 day' ELSE created END
       FROM generate_series(1, 22000) AS i, LATERAL (SELECT timestamptz '2024-01-01T00:00:00Z' + i * interval '40 minutes' + (i % 1000) * interval '1 millisecond' AS created) c
       ORDER BY i`,
      [COMPANY, OTHER],
    );
    const { rows } = await t.sql.query<{ modified: Date }>(
      `SELECT last_modified_at AS modified FROM customers WHERE company_id = $1 AND last_modified_at <> created_at ORDER BY internal_id OFFSET 3000 LIMIT 1`,
      [COMPANY],
    );
    rowModified = rows[0].modified.toISOString().replace('Z', '');
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('counts a fragment once its exact count finds enough customers, and answers its later pages from the counts', async () => {
    expect(await registered()).toEqual([]);
    // Few matches: counted from the rows each time, never registered.
    expect(await search('nordbygg 2107')).toBe((await expectedCustomerNumbers(t.sql, COMPANY, { name: 'nordbygg 2107' })).length);
    expect(await registered()).toEqual([]);
    // Many: the first request counts the rows (exactly), then the fragment is registered, lower-cased.
    const expected = await expectedCustomerNumbers(t.sql, COMPANY, { name: 'bygg' });
    expect(expected.length).toBeGreaterThan(MIN_MATCHES);
    expect(await search('BYGG')).toBe(expected.length);
    expect(await registered()).toEqual(['bygg']);
    await expectNameCellsExact();
    // The counts answer: a count changed behind the service's back shows in its total (then undone).
    const { rows } = await t.sql.query(
      `UPDATE customer_name_cells SET row_count = row_count + 1000
       WHERE ctid = (SELECT ctid FROM customer_name_cells WHERE company_id = $1 AND row_count > 0 LIMIT 1) RETURNING ctid`,
      [COMPANY],
    );
    expect(await search('Bygg')).toBe(expected.length + 1000);
    await t.sql.query(`UPDATE customer_name_cells SET row_count = row_count - 1000 WHERE ctid = $1`, [rows[0].ctid]);
    expect(await search('bygg')).toBe(expected.length);
  });

  it('answers every page of a counted name, alone and with status and timestamp ranges, exactly as the plain SQL does', async () => {
    const filters: Filter[] = [
      { name: 'name', query: { name: 'bygg' } },
      { name: 'name + status', query: { name: 'BYGG', status: 'Active' } },
      { name: 'name + lastModified >=', query: { name: 'bygg', lastModifiedDateTime: rowModified, lastModifiedDateTimeCondition: '>=' } },
      { name: 'name + status + created <', query: { name: 'bygg', status: 'Active', createdDateTime: createdBoundary, createdDateTimeCondition: '<' } },
      // LIKE's wildcards in the name are plain characters, in the counts as in the rows.
      { name: 'name with %', query: { name: '0% b' } },
      { name: 'name with _', query: { name: 'g_c' } },
    ];
    for (const fragment of ['0% b', 'g_c']) await search(fragment);
    expect(await registered()).toEqual(['0% b', 'bygg', 'g_c']);
    for (const filter of filters) {
      const expected = await expectedCustomerNumbers(t.sql, COMPANY, filter.query);
      expect(expected.length).toBeGreaterThan(PAGE_SIZE);
      await expectWalkMatchesOracle(oracleList(filter));
    }
    // Other pages sizes start in other id buckets.
    await expectWalkMatchesOracle(oracleList(filters[0], COMPANY, 37));
  }, 120_000);

  it('keeps the counts exact while customers are inserted, renamed, re-statused and deleted, and answers each page exactly', async () => {
    const watched: Filter[] = [
      { name: 'name', query: { name: 'bygg' } },
      { name: 'name + status', query: { name: 'bygg', status: 'Inactive' } },
      { name: 'name + lastModified >=', query: { name: 'bygg', lastModifiedDateTime: rowModified, lastModifiedDateTimeCondition: '>=' } },
    ];
    for (let step = 0; step < 9; step++) {
      await t.sql.query(
        `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
         SELECT $1, 'M' || $2 || '-' || i, CASE WHEN i % 2 = 0 THEN 'Fjellbygg ' ELSE 'Plain ' END || i, 'Inactive', now(), now()
         FROM generate_series(1, 30) AS i`,
        [COMPANY, step],
      );
      // Renamed into and out of the fragments, re-statused, moved in time: across the id range.
      await t.sql.query(
        `UPDATE customers SET name = CASE WHEN strpos(lower(name), 'bygg') > 0 THEN 'Renamed ' || internal_id ELSE 'Ombygging ' || internal_id END,
                status = CASE WHEN internal_id % 2 = 0 THEN 'Inactive' ELSE status END, last_modified_at = date_trunc('milliseconds', now())
         WHERE company_id = $1 AND abs(hashint4(internal_id::int * 31 + $2)) % 150 = 0`,
        [COMPANY, step],
      );
      await t.sql.query(`DELETE FROM customers WHERE company_id = $1 AND abs(hashint4(internal_id::int * 17 + $2)) % 200 = 0`, [COMPANY, step]);
      const filter = watched[step % watched.length];
      for (const pageNumber of [1, 2 + step, 8 + step]) await expectPageMatchesOracle(oracleList(filter, COMPANY, 100), pageNumber);
    }
    await expectNameCellsExact();
  }, 120_000);

  it("counts only the company's own customers, and another company's search has its own counts", async () => {
    const otherHeaders = await t.auth.headers({ company: OTHER });
    const expected = await expectedCustomerNumbers(t.sql, OTHER, { name: 'bygg' });
    expect(expected.length).toBeGreaterThan(MIN_MATCHES);
    expect(await search('bygg', otherHeaders)).toBe(expected.length);
    expect(await registered(OTHER)).toEqual(['bygg']);
    const { rows } = await t.sql.query(
      `SELECT DISTINCT c.company_id, f.company_id AS fragment_company FROM customer_name_cells c JOIN customer_name_fragments f ON f.id = c.fragment_id`,
    );
    expect(rows).toEqual(expect.arrayContaining([{ company_id: COMPANY, fragment_company: COMPANY }, { company_id: OTHER, fragment_company: OTHER }]));
    expect(rows).toHaveLength(2);
    await expectNameCellsExact();
    await expectWalkMatchesOracle(customerOracleList({ http: t.http, sql: t.sql, companyId: OTHER, headers: otherHeaders, filter: { name: 'other', query: { name: 'bygg' } }, pageSize: 100 }));
  });

  it('waits for the writes open when a fragment appears, counts their rows, and never holds a write meanwhile', async () => {
    const open = new Client({ connectionString: t.database.url });
    const other = new Client({ connectionString: t.database.url });
    await Promise.all([open.connect(), other.connect()]);
    try {
      // A write open first: its trigger ran before the fragment existed, so the registration must
      // wait for its commit and then count its row from the rows.
      // (Another status and time than the writes below: writes sharing a count cell wait for each
      // other's commit, with or without name counts.)
      await open.query('BEGIN');
      await open.query(
        `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, 'C1', 'Skogbygg C1', 'OnHold', '2019-01-01', '2019-01-01')`,
        [COMPANY],
      );
      let settled = false;
      const registration = names().register(COMPANY, 'skogbygg', PER_COMPANY).finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(settled).toBe(false);
      // Meanwhile the company's other writes go on without waiting for anything.
      await other.query(`SET lock_timeout = '200ms'`);
      await insert(other, 'C2', 'Skogbygg C2');
      await other.query(`UPDATE customers SET name = 'Skogbygg C2 renamed' WHERE company_id = $1 AND number = 'C2'`, [COMPANY]);
      expect(settled).toBe(false);
      await open.query('COMMIT');
      expect(await registration).toBe(true);
      expect(await fragmentTotal('skogbygg')).toBe(2);
      await expectNameCellsExact();
    } finally {
      await Promise.all([open.end(), other.end()]);
    }
  });

  it('never makes a write wait while it backfills, however slow the backfill, and reads ignore the fragment until it is complete', async () => {
    const writer = new Client({ connectionString: t.database.url });
    await writer.connect();
    await slowBackfill(true);
    try {
      const expected = await expectedCustomerNumbers(t.sql, COMPANY, { name: 'bygg_co' });
      expect(expected.length).toBeGreaterThan(MIN_MATCHES);
      const registration = names().register(COMPANY, 'bygg_co', PER_COMPANY);
      await waitForBackfill();
      // Writes that add, rename into, rename out of and delete matches, each allowed to wait 200 ms
      // for a lock at most: the old registration held them for the whole backfill.
      await writer.query(`SET lock_timeout = '200ms'`);
      const { rows: victims } = await writer.query<{ number: string }>(
        `SELECT number FROM customers WHERE company_id = $1 AND strpos(lower(name), 'bygg_co') > 0 ORDER BY internal_id LIMIT 3`,
        [COMPANY],
      );
      const writes = [
        () => insert(writer, 'B1', 'New Bygg_Co B1'),
        () => writer.query(`UPDATE customers SET name = 'Bygg_Co renamed' WHERE company_id = $1 AND number = 'N000010'`, [COMPANY]),
        () => writer.query(`UPDATE customers SET name = 'Renamed away' WHERE company_id = $1 AND number = $2`, [COMPANY, victims[0].number]),
        () => writer.query(`DELETE FROM customers WHERE company_id = $1 AND number = $2`, [COMPANY, victims[1].number]),
        () => writer.query(`UPDATE customers SET status = 'OnHold', last_modified_at = now() WHERE company_id = $1 AND number = $2`, [COMPANY, victims[2].number]),
      ];
      for (const write of writes) {
        const started = Date.now();
        await write();
        expect(Date.now() - started).toBeLessThan(1000);
      }
      // Still backfilling: a read counts the rows, not the incomplete cells.
      expect(await backfilling()).toBe(true);
      expect(await search('bygg_co')).toBe((await expectedCustomerNumbers(t.sql, COMPANY, { name: 'bygg_co' })).length);
      expect(await registration).toBe(true);
      await slowBackfill(false);
      await expectNameCellsExact();
      await expectWalkMatchesOracle(oracleList({ name: 'registered during writes', query: { name: 'bygg_co' } }, COMPANY, 100));
    } finally {
      await slowBackfill(false);
      await writer.end();
    }
  }, 60_000);

  it('gives up when a write stays open too long, drops its fragment, and the write commits', async () => {
    const writer = new Client({ connectionString: t.database.url });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await insert(writer, 'G1', 'Gap 1');
      await expect(names().register(COMPANY, 'gap', PER_COMPANY)).rejects.toThrow(/stayed open/);
      await insert(writer, 'G2', 'Gap 2');
      await writer.query('COMMIT');
      // Its drop waited for the same write in vain: left retiring (skipped by reads and writes)
      // for the company's next registration to delete (the test below checks it did).
      expect(await registered()).not.toContain('gap');
      const { rows } = await t.sql.query(`SELECT state FROM customer_name_fragments WHERE company_id = $1 AND fragment = 'gap'`, [COMPANY]);
      expect(rows).toEqual([{ state: 'retiring' }]);
    } finally {
      await writer.end();
    }
  }, 45_000);

  it('refuses a write of customers at another isolation level than READ COMMITTED rather than miss a count', async () => {
    const writer = new Client({ connectionString: t.database.url });
    await writer.connect();
    try {
      await writer.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await expect(writer.query(`INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, 'RR1', 'Repeatable', 'Active', now(), now())`, [COMPANY])).rejects.toThrow(
        /READ COMMITTED/,
      );
      await writer.query('ROLLBACK');
    } finally {
      await writer.end();
    }
  });

  it('keeps at most CUSTOMER_NAME_COUNTS_PER_COMPANY fragments, dropping the least recently used with its cells, and still answers it exactly', async () => {
    await t.sql.query(`UPDATE customer_name_fragments SET used_at = now() - interval '1 day' WHERE company_id = $1 AND fragment = '0% b'`, [COMPANY]);
    const before = await registered();
    expect(before).toHaveLength(PER_COMPANY);
    expect(before).toContain('0% b');
    await search('customer 1');
    const after = await registered();
    expect(after).toHaveLength(PER_COMPANY);
    expect(after).toContain('customer 1');
    expect(after).not.toContain('0% b');
    const { rows } = await t.sql.query(`SELECT 1 FROM customer_name_cells WHERE fragment_id NOT IN (SELECT id FROM customer_name_fragments)`);
    expect(rows).toEqual([]);
    // Every fragment another registration left retiring is gone too.
    expect((await t.sql.query(`SELECT fragment FROM customer_name_fragments WHERE state <> 'ready'`)).rows).toEqual([]);
    await expectNameCellsExact();
    // A request for it counts the rows again.
    await expectWalkMatchesOracle(oracleList({ name: 'dropped', query: { name: '0% b' } }));
  });

  it('registers one fragment of a company at a time, and those searched meanwhile after it', async () => {
    const fragments = ['customer 2', 'customer 3', 'customer 4'];
    let most = 0;
    const watch = setInterval(() => {
      void t.sql
        .query<{ n: number }>(`SELECT count(*)::int AS n FROM customer_name_fragments WHERE company_id = $1 AND state = 'building'`, [COMPANY])
        .then(({ rows }) => (most = Math.max(most, rows[0].n)));
    }, 5);
    try {
      await Promise.all(fragments.map((name) => t.http.request(`/v1/customer?${new URLSearchParams({ name, pageSize: '1' })}`, { headers }).then((r) => r.text())));
      await names().settled();
    } finally {
      clearInterval(watch);
    }
    expect(await registered()).toEqual(expect.arrayContaining(fragments));
    expect(most).toBeLessThanOrEqual(1);
    await expectNameCellsExact();
  });

  it('empties the counts with the table', async () => {
    await t.sql.query(`TRUNCATE customers`);
    const { rows } = await t.sql.query(`SELECT 1 FROM customer_name_cells`);
    expect(rows).toEqual([]);
    await t.sql.query(`INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) SELECT $1, 'T' || i, 'Bygg ' || i, 'Active', now(), now() FROM generate_series(1, 120) i`, [COMPANY]);
    await expectNameCellsExact();
    await expectWalkMatchesOracle(oracleList({ name: 'after truncate', query: { name: 'bygg' } }, COMPANY, 50));
  });
});

const names = () => t.service.app.get(CustomerNameCounts);

const insert = (client: Client, number: string, name: string) =>
  client.query(`INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, $2, $3, 'Active', now(), now())`, [COMPANY, number, name]);

async function fragmentTotal(fragment: string): Promise<number> {
  const { rows } = await t.sql.query<{ n: number }>(
    `SELECT sum(row_count)::int AS n FROM customer_name_cells c JOIN customer_name_fragments f ON f.id = c.fragment_id WHERE f.company_id = $1 AND f.fragment = $2`,
    [COMPANY, fragment],
  );
  return rows[0].n;
}

/**
 * Makes the registration's backfill slow (2 ms a matching row) and only it: the cell function
 * sleeps in read-only transactions, which is what the backfill's snapshot is and no write is.
 */
async function slowBackfill(slow: boolean): Promise<void> {
  const bucket = `(floor(extract(epoch FROM at))::bigint >> 19)::integer`;
  await t.sql.query(
    slow
      ? `CREATE OR REPLACE FUNCTION customer_name_time_bucket(at timestamptz) RETURNS integer LANGUAGE plpgsql IMMUTABLE AS $$
         BEGIN
           IF current_setting('transaction_read_only') = 'on' THEN PERFORM pg_sleep(0.001); END IF;
           RETURN ${bucket};
         END $$`
      : `CREATE OR REPLACE FUNCTION customer_name_time_bucket(at timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ${bucket} $$`,
  );
}

/** Whether a session of the test database is in the backfill's sleep. */
async function backfilling(): Promise<boolean> {
  const { rows } = await t.sql.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'`);
  return rows.length > 0;
}

async function waitForBackfill(): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    if (await backfilling()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the backfill never started');
}
