import type { Client } from 'pg';
import { type OracleList, type V1FilterListOptions, v1FilterOracleList } from '@erp/testing';

/** The reference numbers of a company's invoices that a v1 list query selects, in list order: the filter's SQL, written independently of the service's. */
export async function expectedInvoiceReferences(sql: Client, companyId: string, query: Record<string, string>): Promise<string[]> {
  const values: unknown[] = [companyId];
  const conditions = ['company_id = $1'];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    values.push(value);
    conditions.push(`${column} = $${values.length}`);
  };
  equal('status', query['status']);
  equal('document_type', query['documentType']);
  equal('supplier_number', query['supplier']);
  if (query['lastModifiedDateTime'] !== undefined) {
    values.push(`${query['lastModifiedDateTime']}Z`);
    conditions.push(`last_modified_at ${query['lastModifiedDateTimeCondition']} $${values.length}::timestamptz`);
  }
  const { rows } = await sql.query<{ reference: string }>(
    `SELECT reference_number AS reference FROM supplier_invoices WHERE ${conditions.join(' AND ')} ORDER BY internal_id`,
    values,
  );
  return rows.map((r) => r.reference);
}

/** `GET /v1/supplierInvoice` with one filter, read through the service and checked against expectedInvoiceReferences. */
export function invoiceOracleList(options: V1FilterListOptions): OracleList {
  return v1FilterOracleList(options, { path: '/v1/supplierInvoice', key: 'referenceNumber', expected: expectedInvoiceReferences });
}
