import type { Client } from 'pg';
import { TOPICS } from '@erp/contracts';
import { startServiceTestApp, type ServiceTestApp } from '@erp/testing';
import { SupplierInvoicesAppModule } from '../app.module';
import { SupplierInvoicesConfig } from '../config';
import { SUPPLIER_INVOICES_ENTITIES, SUPPLIER_INVOICES_MIGRATIONS } from '../database';

/** A supplier-invoices-v1 instance on its own fresh database and topic prefix (events go to `<topicPrefix>erp.supplier-invoices.supplier-invoice.v1`). */
export type SupplierInvoicesTestApp = ServiceTestApp;

export function startSupplierInvoicesTestApp(
  env: Record<string, string> = {},
): Promise<SupplierInvoicesTestApp> {
  return startServiceTestApp({
    name: 'supplier-invoices-v1',
    instance: 'supplier-invoices',
    config: SupplierInvoicesConfig,
    module: (config) => SupplierInvoicesAppModule.forRoot(config),
    errorFamily: 'v1',
    entities: SUPPLIER_INVOICES_ENTITIES,
    migrations: SUPPLIER_INVOICES_MIGRATIONS,
    consumedTopics: [TOPICS.attachments],
    env,
  });
}

/**
 * Inserts `count` invoices for a company straight into the table (fast setup for paging tests),
 * numbered `<prefix>00001`... in creation order, without lines.
 */
export async function insertSupplierInvoices(
  sql: Client,
  companyId: string,
  count: number,
  fields: { prefix?: string; status?: string; supplier?: string; documentType?: string } = {},
): Promise<void> {
  await sql.query(
    `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, supplier_name,
       document_date, status, amount, vat_amount, balance, created_at, last_modified_at)
     SELECT $1, $2 || lpad(i::text, 5, '0'), $3, $4::text, 'Supplier ' || $4::text, DATE '2026-01-01', $5, 0, 0, 0,
       date_trunc('milliseconds', now()), date_trunc('milliseconds', now())
     FROM generate_series(1, $6::int) AS i ORDER BY i`,
    [
      companyId,
      fields.prefix ?? 'P',
      fields.documentType ?? 'Invoice',
      fields.supplier ?? 'S1',
      fields.status ?? 'Open',
      count,
    ],
  );
}
