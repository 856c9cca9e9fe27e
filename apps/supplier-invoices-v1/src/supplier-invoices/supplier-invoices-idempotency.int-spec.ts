import { describeIdempotentWriteRules } from '@erp/testing';
import { startSupplierInvoicesTestApp, type SupplierInvoicesTestApp } from '../testing/supplier-invoices-test-app';

const A = '1000001';
const B = '2000002';
let t: SupplierInvoicesTestApp;
let made = 0;

/** Invoices, their lines and SUPPLIERINVOICE_* outbox rows of a company. */
async function effects(company: string): Promise<Record<string, number>> {
  const { rows } = await t.sql.query<{ invoices: number; lines: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM supplier_invoices WHERE company_id = $1) AS invoices,
            (SELECT count(*)::int FROM supplier_invoice_lines l JOIN supplier_invoices i ON i.internal_id = l.invoice_id WHERE i.company_id = $1) AS lines,
            (SELECT count(*)::int FROM outbox WHERE payload->>'companyId' = $1) AS events`,
    [company],
  );
  return rows[0]!;
}

describe('supplier-invoices-v1 keyed writes', () => {
  beforeAll(async () => {
    t = await startSupplierInvoicesTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  describeIdempotentWriteRules('POST /v1/supplierInvoice', {
    url: () => t.service.url,
    auth: () => t.auth,
    sql: () => t.sql,
    company: A,
    otherCompany: B,
    operation: 'POST /v1/supplierInvoice',
    effects,
    request: (variant) => ({
      method: 'POST',
      path: '/v1/supplierInvoice',
      body: {
        supplier: { number: 'S-100', name: 'Fjord Timber AS' },
        description: `${variant === 'other' ? 'Other' : 'Keyed'} invoice ${++made}`,
        invoiceLines: [{ description: 'Planks', quantity: 2, unitPrice: '12.50' }],
      },
    }),
  });
});
