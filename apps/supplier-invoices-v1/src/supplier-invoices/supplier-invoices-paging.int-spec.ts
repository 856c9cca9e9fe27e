import { describeV1PagingRules } from '@erp/testing';
import {
  insertSupplierInvoices,
  startSupplierInvoicesTestApp,
  type SupplierInvoicesTestApp,
} from '../testing/supplier-invoices-test-app';

const COMPANY = '1000001';
let t: SupplierInvoicesTestApp;

// The same v1 paging suite every v1 list runs (libs/testing), here against /v1/supplierInvoice.
describeV1PagingRules('GET /v1/supplierInvoice paging (v1 rules)', {
  path: '/v1/supplierInvoice',
  idField: 'referenceNumber',
  maxPageSize: 120,
  async start() {
    t = await startSupplierInvoicesTestApp({ SUPPLIER_INVOICE_MAX_PAGE_SIZE: '120' });
    // Another company's invoices are never counted or listed.
    await insertSupplierInvoices(t.sql, '2000002', 40, { prefix: 'X' });
    return {
      http: t.http,
      headers: await t.auth.headers({ company: COMPANY }),
      insert: (count, tag) => insertSupplierInvoices(t.sql, COMPANY, count, { prefix: tag }),
      remove: async (tag) => {
        await t.sql.query(`DELETE FROM supplier_invoices WHERE company_id = $1 AND reference_number LIKE $2 || '%'`, [COMPANY, tag]);
      },
    };
  },
  stop: () => t.close(),
});

describe('GET /v1/supplierInvoice default maximum', () => {
  let app: SupplierInvoicesTestApp;
  beforeAll(async () => {
    app = await startSupplierInvoicesTestApp();
    await insertSupplierInvoices(app.sql, COMPANY, 505);
  });
  afterAll(() => app.close());

  it('defaults to a maximum pageSize of 500 for supplier invoices', async () => {
    const headers = await app.auth.headers({ company: COMPANY });
    const response = await app.http.request('/v1/supplierInvoice?pageSize=2000&pageNumber=1', { headers });
    const body = (await response.json()) as Array<{ metadata: unknown }>;
    expect(body).toHaveLength(500);
    expect(body[0].metadata).toEqual({ totalCount: 505, maxPageSize: 500 });
    const defaults = (await (await app.http.request('/v1/supplierInvoice', { headers })).json()) as unknown[];
    expect(defaults).toHaveLength(500);
  });
});
