import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

interface InvoiceRow {
  referenceNumber: string;
  lastModifiedDateTime: string;
  metadata: { totalCount: number };
}

const COMPANY = '1000001';
let t: SupplierInvoicesTestApp;
let headers: Record<string, string>;

async function list(query: string): Promise<InvoiceRow[]> {
  const response = await t.http.request(`/v1/supplierInvoice?${query}`, { headers });
  expect(response.status).toBe(200);
  return (await response.json()) as InvoiceRow[];
}

const refs = (rows: InvoiceRow[]) => rows.map((r) => r.referenceNumber);

describe('GET /v1/supplierInvoice filters', () => {
  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
    headers = await t.auth.headers({ company: COMPANY });
    // Fixed timestamps make every comparison operator checkable to the millisecond.
    await t.sql.query(
      `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, document_date, status,
         amount, vat_amount, balance, created_at, last_modified_at) VALUES
       ($1, 'F1', 'Invoice',    'S-100', '2026-01-01', 'Open',     0, 0, 0, '2026-01-01T00:00:00Z', '2026-03-01T10:00:00.000Z'),
       ($1, 'F2', 'CreditAdj',  'S-100', '2026-01-01', 'Hold',     0, 0, 0, '2026-01-02T00:00:00Z', '2026-03-01T10:00:00.500Z'),
       ($1, 'F3', 'Invoice',    'S-200', '2026-01-01', 'Balanced', 0, 0, 0, '2026-01-03T00:00:00Z', '2026-03-02T00:00:00.000Z'),
       ($1, 'F4', 'DebitAdj',   'S-300', '2026-01-01', 'Closed',   0, 0, 0, '2026-01-04T00:00:00Z', '2026-03-03T00:00:00.000Z'),
       ($1, 'F5', 'Prepayment', 'S-100', '2026-01-01', 'Open',     0, 0, 0, '2026-01-05T00:00:00Z', '2026-03-04T00:00:00.000Z'),
       ('2000002', 'F6', 'Invoice', 'S-100', '2026-01-01', 'Open', 0, 0, 0, '2026-01-01T00:00:00Z', '2026-03-01T10:00:00Z')`,
      [COMPANY],
    );
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('filters by status, supplier number and documentType exactly', async () => {
    expect(refs(await list('status=Open'))).toEqual(['F1', 'F5']);
    expect(refs(await list('status=Closed'))).toEqual(['F4']);
    expect(refs(await list('supplier=S-100'))).toEqual(['F1', 'F2', 'F5']);
    expect(refs(await list('supplier=S-1'))).toEqual([]);
    expect(refs(await list('documentType=Invoice'))).toEqual(['F1', 'F3']);
    expect(refs(await list('documentType=CreditAdj'))).toEqual(['F2']);
  });

  it.each([
    ['>', ['F2', 'F3', 'F4', 'F5']],
    ['>=', ['F1', 'F2', 'F3', 'F4', 'F5']],
    ['<', []],
    ['<=', ['F1']],
    ['=', ['F1']],
  ])('applies lastModifiedDateTimeCondition %s', async (operator, expected) => {
    const rows = await list(
      `lastModifiedDateTime=2026-03-01T10:00:00.000&lastModifiedDateTimeCondition=${encodeURIComponent(operator)}`,
    );
    expect(refs(rows)).toEqual(expected);
  });

  it('defaults the condition to >= and reads the timestamp as UTC, to the millisecond', async () => {
    expect(refs(await list('lastModifiedDateTime=2026-03-02T00:00:00'))).toEqual(['F3', 'F4', 'F5']);
    expect(refs(await list('lastModifiedDateTime=2026-03-02'))).toEqual(['F3', 'F4', 'F5']);
    const eq = encodeURIComponent('=');
    expect(refs(await list(`lastModifiedDateTime=2026-03-01T10:00:00.5&lastModifiedDateTimeCondition=${eq}`))).toEqual(['F2']);
  });

  it('returns a record’s lastModifiedDateTime in a form the filter accepts back unchanged', async () => {
    const [first] = await list('documentType=Prepayment');
    const eq = encodeURIComponent('=');
    const again = await list(`lastModifiedDateTime=${first.lastModifiedDateTime}&lastModifiedDateTimeCondition=${eq}`);
    expect(refs(again)).toEqual(['F5']);
  });

  it('combines filters with each other and with paging, totalCount counting the filtered set', async () => {
    const page1 = await list('supplier=S-100&status=Open&pageSize=1&pageNumber=1');
    const page2 = await list('supplier=S-100&status=Open&pageSize=1&pageNumber=2');
    const page3 = await list('supplier=S-100&status=Open&pageSize=1&pageNumber=3');
    expect([...refs(page1), ...refs(page2)]).toEqual(['F1', 'F5']);
    expect(page1[0].metadata.totalCount).toBe(2);
    expect(page3).toEqual([]);
  });

  it.each([
    ['status=Paid', 'status'],
    ['status=open', 'status'],
    ['documentType=Bill', 'documentType'],
    ['supplier=S-100&supplier=S-200', 'supplier'],
    [`supplier=${'x'.repeat(31)}`, 'supplier'],
    ['lastModifiedDateTime=yesterday', 'lastModifiedDateTime'],
    ['lastModifiedDateTime=2026-02-30T00:00:00', 'lastModifiedDateTime'],
    ['lastModifiedDateTime=2026-03-01T10:00:00&lastModifiedDateTimeCondition=%3D%3D', 'lastModifiedDateTimeCondition'],
    ['createdDateTime=2026-01-01', 'createdDateTime'],
    ['suplier=S-100', 'suplier'],
  ])('refuses %s with a 400 naming %s', async (query, parameter) => {
    const response = await t.http.request(`/v1/supplierInvoice?${query}`, { headers });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ExceptionMessage: string; ExceptionFaultCode: string };
    expect(body.ExceptionFaultCode).toBe('10001');
    expect(body.ExceptionMessage).toContain(parameter);
  });

  it('never treats filter values as SQL', async () => {
    expect(await list(`supplier=${encodeURIComponent("S-100' OR 1=1 --")}`)).toEqual([]);
  });
});
