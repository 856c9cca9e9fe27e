import { bucketFunctionDisagreements, type BucketSchema, expectWalkMatchesOracle, idsAroundBucketStarts, instantsAroundBucketStarts, planOf, rowsAtEdges, timeBucketStart } from '@erp/testing';
import { supplierInvoicePageQuery } from './repository/supplier-invoices.queries';
import { parseSupplierInvoiceListQuery } from './supplier-invoice-list.query';
import { invoiceOracleList } from '../testing/supplier-invoice-list-oracle';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const COMPANY = '1000001';
const ID = { bucket: 'supplier_invoice_id_bucket', start: 'supplier_invoice_id_bucket_start' };
const TIME = { bucket: 'supplier_invoice_time_bucket', start: 'supplier_invoice_time_bucket_start' };
/** The functions of migration 1766800000000, the only place the query code learns the widths from, and the cells they must agree with. */
const SCHEMA: BucketSchema = {
  cells: [
    {
      cells: 'supplier_invoice_buckets',
      rows: 'supplier_invoices',
      same: ['company_id', 'status', 'document_type'],
      buckets: [
        { cell: 'id_bucket', row: 'internal_id', start: ID.start },
        { cell: 'modified_bucket', row: 'last_modified_at', start: TIME.start },
      ],
    },
  ],
  enclosed: [
    { table: 'supplier_invoices', column: 'internal_id', ...ID },
    { table: 'supplier_invoices', column: 'last_modified_at', ...TIME },
  ],
  functions: [`${ID.bucket}(bigint)`, `${ID.start}(bigint)`, `${TIME.start}(integer)`],
};

/**
 * The bucket widths live in the schema only (migration 1766800000000): the list's statements call
 * its functions, while the triggers of 1765300000000 write `supplier_invoice_buckets` with their own
 * shift. Invoices placed just around bucket starts must be read back, through the functions, from
 * exactly the cells the triggers put them in, and lists through the service must still answer them.
 */
describe('supplier-invoices-v1 bucket functions', () => {
  let t: SupplierInvoicesTestApp;
  let boundary: string;

  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
    const ids = await idsAroundBucketStarts(t.sql, 'supplier_invoice_id_bucket_start');
    const instants = await instantsAroundBucketStarts(t.sql, 'supplier_invoice_time_bucket', '2024-06-01T00:00:00Z');
    const rows = rowsAtEdges(ids, instants, '2024-06-10T12:00:00Z', 1_000_001);
    await t.sql.query(
      `INSERT INTO supplier_invoices (internal_id, company_id, reference_number, document_type, supplier_number, document_date, status,
         amount, vat_amount, balance, created_at, last_modified_at) OVERRIDING SYSTEM VALUE
       SELECT id, $1, 'E' || id, 'Invoice', CASE WHEN id % 3 = 0 THEN 'S1' ELSE 'S2' END, DATE '2024-06-01',
              CASE WHEN id % 2 = 0 THEN 'Open' ELSE 'Closed' END, 0, 0, 0, created, modified
       FROM unnest($2::bigint[], $3::timestamptz[], $4::timestamptz[]) AS r (id, modified, created)`,
      [COMPANY, rows.ids, rows.modified, rows.created],
    );
    boundary = (await timeBucketStart(t.sql, 'supplier_invoice_time_bucket', '2024-06-01T00:00:00Z')).toISOString().replace('Z', '');
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('reads every invoice back from the cell its triggers wrote, puts every id and instant in its bucket, and lets the request role call the functions', async () => {
    expect(await bucketFunctionDisagreements(t.sql, SCHEMA)).toEqual({ cells: [], outside: [], refused: [] });
  });

  it.each([
    ['no filter', {}],
    ['status and lastModified < a bucket start', { status: 'Open', lastModifiedDateTime: 'BOUNDARY', lastModifiedDateTimeCondition: '<' }],
    ['lastModified >= a bucket start', { lastModifiedDateTime: 'BOUNDARY', lastModifiedDateTimeCondition: '>=' }],
    ['supplier, counted from the rows', { supplier: 'S1' }],
  ])('lists the invoices at the edges through the service: %s', async (name, query: Record<string, string>) => {
    const filter = { name, query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v === 'BOUNDARY' ? boundary : v])) };
    const headers = await t.auth.headers({ company: COMPANY });
    await expectWalkMatchesOracle(invoiceOracleList({ http: t.http, sql: t.sql, companyId: COMPANY, headers, filter, pageSize: 5 }));
  });

  it('leaves no bucket function in the plan of a filtered page: the planner inlines them into constants and index bounds', async () => {
    for (const query of [
      { status: 'Open', lastModifiedDateTime: boundary, lastModifiedDateTimeCondition: '>', pageNumber: '2', pageSize: '5' },
      { supplier: 'S1', pageNumber: '2', pageSize: '5' },
    ]) {
      const plan = await planOf(t.sql, supplierInvoicePageQuery(COMPANY, parseSupplierInvoiceListQuery(query, 1000)));
      expect(plan).toContain('Index Cond');
      expect(plan).not.toMatch(/supplier_invoice_id_bucket|supplier_invoice_time_bucket_start/);
    }
  });
});
