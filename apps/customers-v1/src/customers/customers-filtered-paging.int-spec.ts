import { expectPageMatchesOracle, expectWalkMatchesOracle, type OracleList, timeBucketStart } from '@erp/testing';
import { customerOracleList, expectedCustomerNumbers } from '../testing/customer-list-oracle';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const COMPANY = '1000001';
const OTHER = '2000002';
const PAGE_SIZE = 700;
let t: CustomersTestApp;
let headers: Record<string, string>;

/** A time bucket's first instant, as the schema cuts the cells' buckets (`customer_time_bucket()`). */
const bucketStart = (iso: string) => timeBucketStart(t.sql, 'customer_time_bucket', iso);
/** The API's timestamp format (UTC, no zone, milliseconds). */
const wire = (date: Date) => date.toISOString().replace('Z', '');

interface Filter {
  name: string;
  query: Record<string, string>;
}

function timeFilter(field: 'lastModifiedDateTime' | 'createdDateTime', operator: string, at: string): Record<string, string> {
  return { [field]: at, [`${field}Condition`]: operator };
}

const expectedNumbers = (query: Record<string, string>) => expectedCustomerNumbers(t.sql, COMPANY, query);

/** The list with one filter, read through the service and checked against the oracle. */
const oracleList = (filter: Filter): OracleList => customerOracleList({ http: t.http, sql: t.sql, companyId: COMPANY, headers, filter, pageSize: PAGE_SIZE });

/** The time-bucket cells must equal a fresh count of the table, cell by cell. */
async function expectCellsExact(): Promise<void> {
  const { rows } = await t.sql.query(
    `SELECT k.*, b.row_count AS kept FROM (
       SELECT company_id, status, customer_list_id_bucket(internal_id) AS id_bucket, customer_time_bucket(last_modified_at) AS modified_bucket,
              customer_time_bucket(created_at) AS created_bucket, count(*)::int AS counted
       FROM customers GROUP BY 1, 2, 3, 4, 5) k
     FULL JOIN customer_time_buckets b USING (company_id, status, id_bucket, modified_bucket, created_bucket)
     WHERE coalesce(k.counted, 0) <> coalesce(b.row_count, 0)`,
  );
  expect(rows).toEqual([]);
}

let filters: Filter[];

describe('GET /v1/customer filtered paging at every depth', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp({ CUSTOMER_MAX_PAGE_SIZE: '1000' });
    headers = await t.auth.headers({ company: COMPANY });
    // 40k rows over three id buckets and ~40 time buckets, every tenth of another company;
    // creation follows internal_id, a third were modified up to 900 days later.
    await t.sql.query(
      `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
       SELECT CASE WHEN i % 10 = 0 THEN $2 ELSE $1 END, 'N' || lpad(i::text, 6, '0'),
              CASE WHEN i % 7 = 0 THEN 'Nordbygg ' ELSE 'Customer ' END || i,
              (ARRAY['Active', 'Active', 'Active', 'Inactive', 'OnHold'])[1 + abs(hashint4(i)) % 5],
              created, CASE WHEN abs(hashint4(i * 7)) % 3 = 0 THEN created + (abs(hashint4(i * 13)) % 900) * interval '1 day' ELSE created END
       FROM generate_series(1, 40000) AS i, LATERAL (SELECT timestamptz '2024-01-01T00:00:00Z' + i * interval '30 minutes' + (i % 1000) * interval '1 millisecond' AS created) c
       ORDER BY i`,
      [COMPANY, OTHER],
    );
    const { rows } = await t.sql.query<{ modified: Date; created: Date }>(
      `SELECT last_modified_at AS modified, created_at AS created FROM customers WHERE company_id = $1 AND last_modified_at <> created_at ORDER BY internal_id OFFSET 5000 LIMIT 1`,
      [COMPANY],
    );
    const rowModified = wire(rows[0].modified);
    const rowCreated = wire(rows[0].created);
    const modifiedBoundary = wire(await bucketStart('2025-03-01T00:00:00Z'));
    const createdBoundary = wire(await bucketStart('2024-06-01T00:00:00Z'));
    filters = [];
    for (const operator of ['>=', '>', '<', '<=', '=']) {
      filters.push({ name: `lastModified ${operator} a row's`, query: timeFilter('lastModifiedDateTime', operator, rowModified) });
      filters.push({ name: `lastModified ${operator} a bucket boundary`, query: timeFilter('lastModifiedDateTime', operator, modifiedBoundary) });
      filters.push({ name: `created ${operator} a row's`, query: timeFilter('createdDateTime', operator, rowCreated) });
      filters.push({ name: `created ${operator} a bucket boundary`, query: timeFilter('createdDateTime', operator, createdBoundary) });
    }
    // A single range reads the cells on whichever side of its boundary spans fewer time buckets:
    // boundaries near the first and the last bucket take one side each.
    const edges = [
      { edge: 'early', modified: '2024-02-03T04:05:06.789', created: '2024-02-03T04:05:06.789' },
      { edge: 'late', modified: '2027-06-10T11:12:13.141', created: '2026-03-01T11:12:13.141' },
    ];
    for (const { edge, modified, created } of edges) {
      for (const operator of ['>=', '<']) {
        filters.push({ name: `lastModified ${operator} ${edge}`, query: timeFilter('lastModifiedDateTime', operator, modified) });
        filters.push({ name: `status + created ${operator} ${edge}`, query: { status: 'Inactive', ...timeFilter('createdDateTime', operator, created) } });
      }
    }
    filters.push(
      { name: 'lastModified >= before everything', query: timeFilter('lastModifiedDateTime', '>=', '2020-01-01T00:00:00.000') },
      { name: 'status + lastModified >=', query: { status: 'Active', ...timeFilter('lastModifiedDateTime', '>=', rowModified) } },
      { name: 'status + created <', query: { status: 'OnHold', ...timeFilter('createdDateTime', '<', rowCreated) } },
      { name: 'lastModified > + created <=', query: { ...timeFilter('lastModifiedDateTime', '>', modifiedBoundary), ...timeFilter('createdDateTime', '<=', rowCreated) } },
      { name: 'lastModified < + created >', query: { ...timeFilter('lastModifiedDateTime', '<', rowModified), ...timeFilter('createdDateTime', '>', createdBoundary) } },
      { name: 'name + status', query: { name: 'BYGG', status: 'Active' } },
    );
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('keeps the time-bucket cells equal to a fresh count after a bulk insert', async () => {
    await expectCellsExact();
  });

  it('answers every page of every filter exactly as the plain SQL does, totals included, with no overlap or gap', async () => {
    for (const filter of filters) await expectWalkMatchesOracle(oracleList(filter));
  }, 180_000);

  it('answers each page exactly for the current data while rows are inserted, updated and deleted between requests', async () => {
    const watched = filters.filter((f) => ['lastModified >= a row\'s', 'status + created <', 'lastModified > + created <=', 'created < a bucket boundary'].includes(f.name));
    let next = 50_000;
    for (let step = 0; step < 12; step++) {
      const filter = watched[step % watched.length];
      // Insert, update (moving last_modified_at to now and sometimes the status), delete: across the id range.
      await t.sql.query(
        `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
         SELECT $1, 'M' || i, 'Moved ' || i, 'Active', now(), now() FROM generate_series($2::int, $2::int + 40) AS i`,
        [COMPANY, next],
      );
      next += 41;
      await t.sql.query(
        `UPDATE customers SET last_modified_at = date_trunc('milliseconds', now()) - (abs(hashint4(internal_id::int + $2)) % 400) * interval '1 day',
                status = CASE WHEN internal_id % 2 = 0 THEN 'OnHold' ELSE status END
         WHERE company_id = $1 AND abs(hashint4(internal_id::int * 31 + $2)) % 500 = 0`,
        [COMPANY, step],
      );
      await t.sql.query(`DELETE FROM customers WHERE company_id = $1 AND abs(hashint4(internal_id::int * 17 + $2)) % 700 = 0`, [COMPANY, step]);
      for (const pageNumber of [1, 2 + step, 20 + step]) await expectPageMatchesOracle(oracleList(filter), pageNumber);
    }
    await expectCellsExact();
  }, 180_000);

  it('never repeats or skips a row when rows are inserted and updated without leaving the result between pages', async () => {
    const filter = filters.find((f) => f.name === 'lastModified >= before everything') as Filter;
    const before = await expectedNumbers(filter.query);
    const walked: string[] = [];
    const inserted: string[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const { keys, total } = await oracleList(filter).read(pageNumber);
      walked.push(...keys);
      if (keys.length === 0 || walked.length >= (total ?? 0)) break;
      // New rows go to the end; an update moves last_modified_at, which keeps every row in this result.
      const { rows } = await t.sql.query<{ number: string }>(
        `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
         VALUES ($1, 'W' || $2, 'Walk ' || $2, 'Active', now(), now()) RETURNING number`,
        [COMPANY, pageNumber],
      );
      inserted.push(rows[0].number);
      await t.sql.query(
        `UPDATE customers SET last_modified_at = date_trunc('milliseconds', now()), status = 'CreditHold'
         WHERE company_id = $1 AND abs(hashint4(internal_id::int + $2)) % 300 = 0`,
        [COMPANY, pageNumber],
      );
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual([...before, ...inserted]);
    await expectCellsExact();
  }, 120_000);

  it('refuses a bad condition or timestamp with a 400 naming the parameter', async () => {
    for (const query of ['lastModifiedDateTime=2026-02-30', 'createdDateTime=2026-01-01&createdDateTimeCondition=%3D%3E']) {
      const response = await t.http.request(`/v1/customer?${query}`, { headers });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/createdDateTime|lastModifiedDateTime/);
    }
  });
});
