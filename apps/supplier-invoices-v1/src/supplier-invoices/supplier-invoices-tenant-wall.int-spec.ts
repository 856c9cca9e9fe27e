import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describeTenantWallRules, whileTenantViewAdmitsNothing } from '@erp/testing';
import { SUPPLIER_INVOICES_WALL } from '../migrations/1795835600000-wall-by-tenant-views';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const A = '1000001';
const B = '2000002';

/**
 * Defence in depth: the tenant views keep companies apart even where a query forgets
 * `company_id`. Each statement runs through the service's own DataSource in a company's scope,
 * exactly as a request handler's would (RELIABILITY.md "Defence in depth").
 */
describe('supplier-invoices-v1 tenant wall', () => {
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
    // An invoice of B without lines, for the probe to point a line at: there the wall answers, not
    // the (invoice, line number) key B's own lines hold.
    await t.sql.query(
      `DELETE FROM supplier_invoice_lines WHERE invoice_id = (SELECT max(internal_id) FROM supplier_invoices WHERE company_id = $1)`,
      [B],
    );
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

  describeTenantWallRules({ db: () => db, tables: [...SUPPLIER_INVOICES_WALL.tables, ...SUPPLIER_INVOICES_WALL.children], own: A, other: B });

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

  it('runs request handlers behind the wall (a view that admits nothing empties the list)', async () => {
    await whileTenantViewAdmitsNothing(t.sql, 'supplier_invoices', async () => {
      const list = await t.http.request('/v1/supplierInvoice', { headers: await t.auth.headers({ company: A }) });
      expect(list.status).toBe(200);
      expect(await list.json()).toEqual([]);
    });
    const list = await t.http.request('/v1/supplierInvoice', { headers: await t.auth.headers({ company: A }) });
    expect(((await list.json()) as unknown[]).length).toBe(2);
  });
});
