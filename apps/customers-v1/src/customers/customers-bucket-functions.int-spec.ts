import { bucketFunctionDisagreements, type BucketSchema, expectWalkMatchesOracle, idsAroundBucketStarts, instantsAroundBucketStarts, planOf, rowsAtEdges, timeBucketStart } from '@erp/testing';
import {
  customerBucketedPageQuery,
  customerNameCountedPageQuery,
  customerTimeBucketedPageQuery,
  parseCustomerListQuery,
} from '@erp/customers-queries';
import { customerOracleList } from '../testing/customer-list-oracle';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const COMPANY = '1000001';
const FRAGMENT = 'edge';
const SAME = ['company_id', 'status'];
const LIST_ID = { cell: 'id_bucket', row: 'internal_id', start: 'customer_list_id_bucket_start' };
const NAME_ID = { ...LIST_ID, start: 'customer_name_id_bucket_start' };
const timeBuckets = (start: string) => [
  { cell: 'modified_bucket', row: 'last_modified_at', start },
  { cell: 'created_bucket', row: 'created_at', start },
];
const enclosed = (column: string, bucket: string) => ({ table: 'customers', column, bucket, start: `${bucket}_start` });
/** The functions of migration 1766800000000, the only place the query code learns the widths from, and the cells they must agree with. */
const SCHEMA: BucketSchema = {
  cells: [
    { cells: 'customer_list_buckets', rows: 'customers', same: SAME, buckets: [{ ...LIST_ID, cell: 'bucket' }] },
    { cells: 'customer_time_buckets', rows: 'customers', same: SAME, buckets: [LIST_ID, ...timeBuckets('customer_time_bucket_start')] },
    {
      cells: 'customer_name_cells',
      rows: 'customers',
      same: SAME,
      buckets: [NAME_ID, ...timeBuckets('customer_name_time_bucket_start')],
      extra: `cell.fragment_id = (SELECT f.id FROM customer_name_fragments f WHERE f.company_id = r.company_id AND strpos(lower(r.name), f.fragment) > 0)`,
    },
  ],
  enclosed: [
    enclosed('internal_id', 'customer_list_id_bucket'),
    enclosed('internal_id', 'customer_name_id_bucket'),
    ...['last_modified_at', 'created_at'].flatMap((column) => [enclosed(column, 'customer_time_bucket'), enclosed(column, 'customer_name_time_bucket')]),
  ],
  functions: [
    'customer_list_id_bucket(bigint)',
    'customer_list_id_bucket_start(bigint)',
    'customer_time_bucket_start(integer)',
    'customer_name_id_bucket(bigint)',
    'customer_name_id_bucket_start(bigint)',
    'customer_name_time_bucket_start(integer)',
  ],
};

/**
 * The bucket widths live in the schema only (migration 1766800000000): the list's statements call
 * its functions, while the triggers of 1763800000000, 1765200000000 and 1766200000000 write the
 * cells with their own shifts. Rows placed just around bucket starts must be read back, through
 * the functions, from exactly the cells the triggers put them in, and lists through the service
 * (the request role, over the tenant views) must still answer them.
 */
describe('customers-v1 bucket functions', () => {
  let t: CustomersTestApp;
  let boundary: string;

  beforeAll(async () => {
    t = await startCustomersTestApp();
    // A ready fragment before the rows: the triggers count them into its name cells.
    await t.sql.query(`INSERT INTO customer_name_fragments (company_id, fragment, state) VALUES ($1, $2, 'ready')`, [COMPANY, FRAGMENT]);
    const ids = [...(await idsAroundBucketStarts(t.sql, 'customer_list_id_bucket_start')), ...(await idsAroundBucketStarts(t.sql, 'customer_name_id_bucket_start'))];
    const instants = [
      ...(await instantsAroundBucketStarts(t.sql, 'customer_time_bucket', '2024-06-01T00:00:00Z')),
      ...(await instantsAroundBucketStarts(t.sql, 'customer_name_time_bucket', '2024-06-01T00:00:00Z')),
    ];
    const rows = rowsAtEdges(ids, instants, '2024-06-10T12:00:00Z', 1_000_001);
    await t.sql.query(
      `INSERT INTO customers (internal_id, company_id, number, name, status, created_at, last_modified_at) OVERRIDING SYSTEM VALUE
       SELECT id, $1, 'E' || id, 'Edge ' || id, CASE WHEN id % 2 = 0 THEN 'Active' ELSE 'Inactive' END, created, modified
       FROM unnest($2::bigint[], $3::timestamptz[], $4::timestamptz[]) AS r (id, modified, created)`,
      [COMPANY, rows.ids, rows.modified, rows.created],
    );
    // A list cell's time bucket start, which is a name cell's too; in the API's format (UTC, no zone).
    boundary = (await timeBucketStart(t.sql, 'customer_time_bucket', '2024-06-01T00:00:00Z')).toISOString().replace('Z', '');
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('reads every row back from the cells its triggers wrote, puts every id and instant in its bucket, and lets the request role call the functions', async () => {
    expect(await bucketFunctionDisagreements(t.sql, SCHEMA)).toEqual({ cells: [], outside: [], refused: [] });
  });

  it.each([
    ['no filter', {}],
    ['status', { status: 'Active' }],
    ['lastModified >= a bucket start', { lastModifiedDateTime: 'BOUNDARY', lastModifiedDateTimeCondition: '>=' }],
    ['name with its counts', { name: FRAGMENT }],
    ['name and created < a bucket start', { name: FRAGMENT, createdDateTime: 'BOUNDARY', createdDateTimeCondition: '<' }],
  ])('lists the rows at the edges through the service: %s', async (name, query: Record<string, string>) => {
    const filter = { name, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'BOUNDARY' ? boundary : v])) };
    const headers = await t.auth.headers({ company: COMPANY });
    await expectWalkMatchesOracle(customerOracleList({ http: t.http, sql: t.sql, companyId: COMPANY, headers, filter, pageSize: 5 }));
  });

  it('leaves no bucket function in the plans: the planner inlines them into constants and index bounds', async () => {
    const parse = (query: Record<string, string>) => parseCustomerListQuery({ ...query, pageNumber: '2', pageSize: '5' }, 1000);
    const plans = [
      await planOf(t.sql, customerBucketedPageQuery(COMPANY, parse({ status: 'Active' }))),
      await planOf(t.sql, customerTimeBucketedPageQuery(COMPANY, parse({ lastModifiedDateTime: boundary, lastModifiedDateTimeCondition: '<' }))),
      await planOf(t.sql, customerNameCountedPageQuery(COMPANY, parse({ name: FRAGMENT, createdDateTime: boundary, createdDateTimeCondition: '>' }))),
    ];
    for (const plan of plans) {
      expect(plan).toContain('Index Cond');
      expect(plan).not.toMatch(/customer_(list|name)_id_bucket|_time_bucket_start/);
    }
  });
});
