import { Client } from 'pg';
import {
  expectPageMatchesOracle,
  expectWalkMatchesOracle,
  type OracleList,
  timeBucketStart,
} from '@erp/testing';
import { customerOracleList, expectedCustomerNumbers } from '../testing/customer-list-oracle';
import type { CustomersTestApp } from '../testing/customers-test-app';
import {
  NAME_COMPANY as COMPANY,
  NAME_MIN_MATCHES as MIN_MATCHES,
  NAME_OTHER as OTHER,
  NAME_PER_COMPANY as PER_COMPANY,
  nameCountHelpers,
  startNameCountsApp,
} from '../testing/customer-name-counts-testing';

const PAGE_SIZE = 300;
let t: CustomersTestApp;
let headers: Record<string, string>;

interface Filter {
  name: string;
  query: Record<string, string>;
}

const oracleList = (filter: Filter, companyId = COMPANY, pageSize = PAGE_SIZE): OracleList =>
  customerOracleList({ http: t.http, sql: t.sql, companyId, headers, filter, pageSize });
const { search, registered, expectNameCellsExact, expectNameWalk } = nameCountHelpers(
  () => t,
  () => headers,
);

describe('GET /v1/customer?name= from kept name counts', () => {
  let rowModified: string;
  /** A name cell's time bucket boundary, as the schema cuts them (`customer_name_time_bucket()`). */
  let createdBoundary: string;

  beforeAll(async () => {
    t = await startNameCountsApp();
    headers = await t.auth.headers({ company: COMPANY });
    const { rows } = await t.sql.query<{ modified: Date }>(
      `SELECT last_modified_at AS modified FROM customers WHERE company_id = $1 AND last_modified_at <> created_at ORDER BY internal_id OFFSET 3000 LIMIT 1`,
      [COMPANY],
    );
    rowModified = rows[0].modified.toISOString().replace('Z', '');
    createdBoundary = (await timeBucketStart(t.sql, 'customer_name_time_bucket', '2024-04-01T00:00:00Z')).toISOString().replace('Z', '');
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('counts a fragment once its exact count finds enough customers, and answers its later pages from the counts', async () => {
    expect(await registered()).toEqual([]);
    // Few matches: counted from the rows each time, never registered.
    expect(await search('nordbygg 2107')).toBe(
      (await expectedCustomerNumbers(t.sql, COMPANY, { name: 'nordbygg 2107' })).length,
    );
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
    await t.sql.query(`UPDATE customer_name_cells SET row_count = row_count - 1000 WHERE ctid = $1`, [
      rows[0].ctid,
    ]);
    expect(await search('bygg')).toBe(expected.length);
  });

  it('answers every page of a counted name, alone and with status and timestamp ranges, exactly as the plain SQL does', async () => {
    const filters: Filter[] = [
      { name: 'name', query: { name: 'bygg' } },
      { name: 'name + status', query: { name: 'BYGG', status: 'Active' } },
      {
        name: 'name + lastModified >=',
        query: { name: 'bygg', lastModifiedDateTime: rowModified, lastModifiedDateTimeCondition: '>=' },
      },
      {
        name: 'name + status + created <',
        query: {
          name: 'bygg',
          status: 'Active',
          createdDateTime: createdBoundary,
          createdDateTimeCondition: '<',
        },
      },
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
      {
        name: 'name + lastModified >=',
        query: { name: 'bygg', lastModifiedDateTime: rowModified, lastModifiedDateTimeCondition: '>=' },
      },
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
      await t.sql.query(
        `DELETE FROM customers WHERE company_id = $1 AND abs(hashint4(internal_id::int * 17 + $2)) % 200 = 0`,
        [COMPANY, step],
      );
      const filter = watched[step % watched.length];
      for (const pageNumber of [1, 2 + step, 8 + step])
        await expectPageMatchesOracle(oracleList(filter, COMPANY, 100), pageNumber);
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
    expect(rows).toEqual(
      expect.arrayContaining([
        { company_id: COMPANY, fragment_company: COMPANY },
        { company_id: OTHER, fragment_company: OTHER },
      ]),
    );
    expect(rows).toHaveLength(2);
    await expectNameCellsExact();
    await expectNameWalk(OTHER, otherHeaders, 'bygg', 100);
  });

  it('refuses a write of customers at another isolation level than READ COMMITTED rather than miss a count', async () => {
    const writer = new Client({ connectionString: t.database.url });
    await writer.connect();
    try {
      await writer.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await expect(
        writer.query(
          `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) VALUES ($1, 'RR1', 'Repeatable', 'Active', now(), now())`,
          [COMPANY],
        ),
      ).rejects.toThrow(/READ COMMITTED/);
      await writer.query('ROLLBACK');
    } finally {
      await writer.end();
    }
  });

  it('keeps at most CUSTOMER_NAME_COUNTS_PER_COMPANY fragments, dropping the least recently used with its cells, and still answers it exactly', async () => {
    await search('nordbygg');
    await t.sql.query(
      `UPDATE customer_name_fragments SET used_at = now() - interval '1 day' WHERE company_id = $1 AND fragment = '0% b'`,
      [COMPANY],
    );
    const before = await registered();
    expect(before).toHaveLength(PER_COMPANY);
    expect(before).toContain('0% b');
    await search('customer 1');
    const after = await registered();
    expect(after).toHaveLength(PER_COMPANY);
    expect(after).toContain('customer 1');
    expect(after).not.toContain('0% b');
    const { rows } = await t.sql.query(
      `SELECT 1 FROM customer_name_cells WHERE fragment_id NOT IN (SELECT id FROM customer_name_fragments)`,
    );
    expect(rows).toEqual([]);
    await expectNameCellsExact();
    // A request for it counts the rows again.
    await expectWalkMatchesOracle(oracleList({ name: 'dropped', query: { name: '0% b' } }));
  });

  it('empties the counts with the table', async () => {
    await t.sql.query(`TRUNCATE customers`);
    const { rows } = await t.sql.query(`SELECT 1 FROM customer_name_cells`);
    expect(rows).toEqual([]);
    await t.sql.query(
      `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at) SELECT $1, 'T' || i, 'Bygg ' || i, 'Active', now(), now() FROM generate_series(1, 120) i`,
      [COMPANY],
    );
    await expectNameCellsExact();
    await expectWalkMatchesOracle(
      oracleList({ name: 'after truncate', query: { name: 'bygg' } }, COMPANY, 50),
    );
  });
});
