import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describeTenantWallRules } from '@erp/testing';
import { SUPPLIER_INVOICES_TENANT_TABLES } from '../migrations/1764500000000-enable-row-level-security';
import { SUPPLIER_INVOICE_BUCKET_TENANT_TABLES } from '../migrations/1765300000000-create-supplier-invoice-buckets';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const A = '1000001';
const B = '2000002';

/**
 * Defence in depth: row-level security keeps companies apart even where a query forgets
 * `company_id`. Each statement runs through the service's own DataSource in a company's scope,
 * exactly as a request handler's would (RELIABILITY.md "Defence in depth").
 */
describe('supplier-invoices-v1 row-level security', () => {
  let t: SupplierInvoicesTestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
    db = t.service.app.get<DataSource>(getDataSourceToken());
    for (const company of [A, B]) {
      const headers = { ...(await t.auth.headers({ company })), 'content-type': 'application/json' };
      for (let i = 0; i < 2; i++) {
        const response = await t.http.request('/v1/supplierInvoice', {
          method: 'POST',
          headers,
          body: JSON.stringify({ supplier: { number: `S-${company}` }, invoiceLines: [{ description: 'x', quantity: 1, unitPrice: 2 }] }),
        });
        expect(response.status).toBe(201);
      }
    }
    // What the attachment events would have added (the consumer works across companies).
    await t.sql.query(
      `INSERT INTO supplier_invoice_attachments (company_id, attachment_id, reference_number, name, revision, attached_at)
       VALUES ($1, gen_random_uuid(), '000001', 'a.pdf', 1, now()), ($2, gen_random_uuid(), '000001', 'b.pdf', 1, now())`,
      [A, B],
    );
  });

  afterAll(async () => {
    await t?.close();
  });

  describeTenantWallRules({ db: () => db, tables: [...SUPPLIER_INVOICES_TENANT_TABLES, ...SUPPLIER_INVOICE_BUCKET_TENANT_TABLES], own: A, other: B });

  it('still answers requests (the API filters by company as before) and background work still sees every company', async () => {
    const list = await t.http.request('/v1/supplierInvoice', { headers: await t.auth.headers({ company: B }) });
    expect(list.status).toBe(200);
    expect(((await list.json()) as unknown[]).length).toBe(2);
    const all = await db.query<Array<{ company_id: string; n: number }>>(
      `SELECT company_id, count(*)::int AS n FROM supplier_invoices GROUP BY 1 ORDER BY 1`,
    );
    expect(all).toEqual([
      { company_id: A, n: 2 },
      { company_id: B, n: 2 },
    ]);
  });

  it('runs request handlers under the policies (a policy that admits nothing empties the list)', async () => {
    await t.sql.query(`ALTER POLICY tenant_isolation ON supplier_invoices USING (false)`);
    try {
      const list = await t.http.request('/v1/supplierInvoice', { headers: await t.auth.headers({ company: A }) });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([]);
    } finally {
      await t.sql.query(`ALTER POLICY tenant_isolation ON supplier_invoices USING (company_id = current_setting('app.company_id', true))`);
    }
    const list = await t.http.request('/v1/supplierInvoice', { headers: await t.auth.headers({ company: A }) });
    expect(((await list.json()) as unknown[]).length).toBe(2);
  });
});
