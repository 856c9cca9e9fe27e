import { expectPageMatchesOracle, expectWalkMatchesOracle, type OracleList, timeBucketStart } from '@erp/testing';
import { expectedInvoiceReferences, invoiceOracleList } from '../testing/supplier-invoice-list-oracle';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const COMPANY = '1000001';
const OTHER = '2000002';
const PAGE_SIZE = 700;
let t: SupplierInvoicesTestApp;
let headers: Record<string, string>;

/** A time bucket's first instant, as the schema cuts the cells' buckets (`supplier_invoice_time_bucket()`). */
const bucketStart = (iso: string) => timeBucketStart(t.sql, 'supplier_invoice_time_bucket', iso);
/** The API's timestamp format (UTC, no zone, milliseconds). */
const wire = (date: Date) => date.toISOString().replace('Z', '');

interface Filter {
  name: string;
  query: Record<string, string>;
}

const modified = (operator: string, at: string) => ({ lastModifiedDateTime: at, lastModifiedDateTimeCondition: operator });

const expectedReferences = (query: Record<string, string>) => expectedInvoiceReferences(t.sql, COMPANY, query);

/** The list with one filter, read through the service and checked against the oracle. */
const oracleList = (filter: Filter): OracleList => invoiceOracleList({ http: t.http, sql: t.sql, companyId: COMPANY, headers, filter, pageSize: PAGE_SIZE });

/** The count cells must equal a fresh count of the table, cell by cell. */
async function expectCellsExact(): Promise<void> {
  const { rows } = await t.sql.query(
    `SELECT k.*, b.row_count AS kept FROM (
       SELECT company_id, status, document_type, supplier_invoice_id_bucket(internal_id) AS id_bucket,
              supplier_invoice_time_bucket(last_modified_at) AS modified_bucket, count(*)::int AS counted
       FROM supplier_invoices GROUP BY 1, 2, 3, 4, 5) k
     FULL JOIN supplier_invoice_buckets b USING (company_id, status, document_type, id_bucket, modified_bucket)
     WHERE coalesce(k.counted, 0) <> coalesce(b.row_count, 0)`,
  );
  expect(rows).toEqual([]);
}

let filters: Filter[];

describe('GET /v1/supplierInvoice filtered paging at every depth', () => {
  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp({ SUPPLIER_INVOICE_MAX_PAGE_SIZE: '1000' });
    headers = await t.auth.headers({ company: COMPANY });
    // 40k invoices over three id buckets and ~35 time buckets, every tenth of another company;
    // 40 suppliers of skewed size (S01 the largest); a third modified up to 900 days after creation.
    await t.sql.query(
      `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, document_date, status,
         amount, vat_amount, balance, created_at, last_modified_at)
       SELECT CASE WHEN i % 10 = 0 THEN $2 ELSE $1 END, lpad(i::text, 6, '0'),
              (ARRAY['Invoice', 'Invoice', 'Invoice', 'CreditAdj', 'DebitAdj', 'Prepayment'])[1 + abs(hashint4(i * 3)) % 6],
              'S' || lpad((1 + floor(40 * power((abs(hashint4(i * 5)) % 1000) / 1000.0, 2)))::int::text, 2, '0'),
              DATE '2024-01-01', (ARRAY['Open', 'Open', 'Closed', 'Closed', 'Hold', 'Balanced'])[1 + abs(hashint4(i)) % 6], 0, 0, 0,
              created, CASE WHEN abs(hashint4(i * 7)) % 3 = 0 THEN created + (abs(hashint4(i * 13)) % 900) * interval '1 day' ELSE created END
       FROM generate_series(1, 40000) AS i,
            LATERAL (SELECT timestamptz '2024-01-01T00:00:00Z' + i * interval '30 minutes' + (i % 1000) * interval '1 millisecond' AS created) c
       ORDER BY i`,
      [COMPANY, OTHER],
    );
    const { rows } = await t.sql.query<{ modified: Date; supplier: string }>(
      `SELECT last_modified_at AS modified, supplier_number AS supplier FROM supplier_invoices
       WHERE company_id = $1 AND last_modified_at <> created_at ORDER BY internal_id OFFSET 5000 LIMIT 1`,
      [COMPANY],
    );
    const rowModified = wire(rows[0].modified);
    const boundary = wire(await bucketStart('2025-03-01T00:00:00Z'));
    filters = [
      { name: 'no filter', query: {} },
      { name: 'status', query: { status: 'Open' } },
      { name: 'documentType', query: { documentType: 'CreditAdj' } },
      { name: 'supplier (largest)', query: { supplier: 'S01' } },
      { name: 'supplier (small)', query: { supplier: 'S39' } },
      { name: 'lastModified >= before everything', query: modified('>=', '2020-01-01T00:00:00.000') },
    ];
    for (const operator of ['>=', '>', '<', '<=', '=']) {
      filters.push({ name: `lastModified ${operator} a row's`, query: modified(operator, rowModified) });
      filters.push({ name: `lastModified ${operator} a bucket boundary`, query: modified(operator, boundary) });
    }
    filters.push(
      { name: 'status + documentType', query: { status: 'Closed', documentType: 'Invoice' } },
      { name: 'status + lastModified >=', query: { status: 'Open', ...modified('>=', rowModified) } },
      { name: 'documentType + lastModified <', query: { documentType: 'Invoice', ...modified('<', boundary) } },
      { name: 'status + documentType + lastModified >', query: { status: 'Hold', documentType: 'Invoice', ...modified('>', rowModified) } },
      { name: 'status + lastModified =', query: { status: 'Open', ...modified('=', rowModified) } },
      { name: 'supplier + status', query: { supplier: 'S01', status: 'Closed' } },
      { name: 'supplier + documentType', query: { supplier: 'S01', documentType: 'Invoice' } },
      { name: 'supplier + lastModified >=', query: { supplier: 'S02', ...modified('>=', boundary) } },
      { name: "supplier + lastModified = a row's", query: { supplier: rows[0].supplier, ...modified('=', rowModified) } },
    );
  }, 120_000);
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('keeps the count cells equal to a fresh count after a bulk insert', async () => {
    await expectCellsExact();
  });

  it('answers every page of every filter exactly as the plain SQL does, totals included, with no overlap or gap', async () => {
    for (const filter of filters) await expectWalkMatchesOracle(oracleList(filter));
  }, 180_000);

  it('answers each page exactly for the current data while invoices are inserted, updated and deleted between requests', async () => {
    const watched = ['no filter', "lastModified >= a row's", 'status + documentType', 'documentType + lastModified <', 'supplier + status', 'lastModified < a bucket boundary'];
    const watchedFilters = filters.filter((f) => watched.includes(f.name));
    expect(watchedFilters).toHaveLength(watched.length);
    let next = 50_000;
    for (let step = 0; step < 12; step++) {
      const filter = watchedFilters[step % watchedFilters.length];
      // Insert, update (last_modified_at moved, sometimes the status and document type), delete: across the id range.
      await t.sql.query(
        `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, document_date, status,
           amount, vat_amount, balance, created_at, last_modified_at)
         SELECT $1, 'M' || i, 'Invoice', 'S01', DATE '2026-01-01', 'Closed', 0, 0, 0, now(), now() FROM generate_series($2::int, $2::int + 40) AS i`,
        [COMPANY, next],
      );
      next += 41;
      await t.sql.query(
        `UPDATE supplier_invoices SET last_modified_at = date_trunc('milliseconds', now()) - (abs(hashint4(internal_id::int + $2)) % 400) * interval '1 day',
                status = CASE WHEN internal_id % 2 = 0 THEN 'Closed' ELSE status END,
                document_type = CASE WHEN internal_id % 3 = 0 THEN 'Invoice' ELSE document_type END
         WHERE company_id = $1 AND abs(hashint4(internal_id::int * 31 + $2)) % 500 = 0`,
        [COMPANY, step],
      );
      await t.sql.query(`DELETE FROM supplier_invoices WHERE company_id = $1 AND abs(hashint4(internal_id::int * 17 + $2)) % 700 = 0`, [COMPANY, step]);
      for (const pageNumber of [1, 2 + step, 20 + step]) await expectPageMatchesOracle(oracleList(filter), pageNumber);
    }
    await expectCellsExact();
  }, 180_000);

  it('never repeats or skips an invoice when invoices are inserted and updated without leaving the result between pages', async () => {
    const filter = filters.find((f) => f.name === 'lastModified >= before everything') as Filter;
    const before = await expectedReferences(filter.query);
    const walked: string[] = [];
    const inserted: string[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const { keys, total } = await oracleList(filter).read(pageNumber);
      walked.push(...keys);
      if (keys.length === 0 || walked.length >= (total ?? 0)) break;
      // New invoices go to the end; an update moves last_modified_at, which keeps every row in this result.
      const { rows } = await t.sql.query<{ reference: string }>(
        `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, document_date, status,
           amount, vat_amount, balance, created_at, last_modified_at)
         VALUES ($1, 'W' || $2, 'DebitAdj', 'S03', DATE '2026-01-01', 'Hold', 0, 0, 0, now(), now()) RETURNING reference_number AS reference`,
        [COMPANY, pageNumber],
      );
      inserted.push(rows[0].reference);
      await t.sql.query(
        `UPDATE supplier_invoices SET last_modified_at = date_trunc('milliseconds', now()), status = 'Balanced'
         WHERE company_id = $1 AND abs(hashint4(internal_id::int + $2)) % 300 = 0`,
        [COMPANY, pageNumber],
      );
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual([...before, ...inserted]);
    await expectCellsExact();
  }, 120_000);

  it('keeps the cells exact through the service\'s own writes (POST, PUT, behind the tenant wall)', async () => {
    const write = { ...headers, 'content-type': 'application/json' };
    const created = await t.http.request('/v1/supplierInvoice', {
      method: 'POST',
      headers: write,
      body: JSON.stringify({ referenceNumber: 'HTTP1', documentType: 'Prepayment', supplier: { number: 'S07' }, invoiceLines: [{ description: 'x', quantity: 2, unitPrice: 3 }] }),
    });
    expect(created.status).toBe(201);
    const updated = await t.http.request('/v1/supplierInvoice/HTTP1', {
      method: 'PUT',
      headers: write,
      body: JSON.stringify({ description: 'changed', invoiceLines: [{ description: 'y', quantity: 1, unitPrice: 5 }] }),
    });
    expect(updated.status).toBe(204);
    await expectCellsExact();
    await expectPageMatchesOracle(oracleList({ name: 'documentType after POST', query: { documentType: 'Prepayment' } }), 1);
  });

  it('refuses a bad condition or timestamp with a 400 naming the parameter', async () => {
    for (const query of ['lastModifiedDateTime=2026-02-30', 'lastModifiedDateTime=2026-01-01&lastModifiedDateTimeCondition=%3D%3E']) {
      const response = await t.http.request(`/v1/supplierInvoice?${query}`, { headers });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/lastModifiedDateTime/);
    }
  });
});
