import type { Client } from 'pg';
import { type OracleList, type V1FilterListOptions, v1FilterOracleList } from '@erp/testing';

// The list filters' SQL, written independently of the service's: the oracle every page is checked against.
const COLUMN: Record<string, string> = { lastModifiedDateTime: 'last_modified_at', createdDateTime: 'created_at' };

/** The numbers of a company's customers that a v1 list query selects, in list order. */
export async function expectedCustomerNumbers(sql: Client, companyId: string, query: Record<string, string>): Promise<string[]> {
  const values: unknown[] = [companyId];
  const conditions = ['company_id = $1'];
  for (const field of ['lastModifiedDateTime', 'createdDateTime']) {
    if (query[field] === undefined) continue;
    values.push(`${query[field]}Z`);
    conditions.push(`${COLUMN[field]} ${query[`${field}Condition`]} $${values.length}::timestamptz`);
  }
  if (query['status'] !== undefined) {
    values.push(query['status']);
    conditions.push(`status = $${values.length}`);
  }
  if (query['name'] !== undefined) {
    values.push(query['name'].toLowerCase());
    conditions.push(`strpos(lower(name), $${values.length}) > 0`);
  }
  const { rows } = await sql.query<{ number: string }>(`SELECT number FROM customers WHERE ${conditions.join(' AND ')} ORDER BY internal_id`, values);
  return rows.map((r) => r.number);
}

/** `GET /v1/customer` with one filter, read through the service and checked against expectedCustomerNumbers. */
export function customerOracleList(options: V1FilterListOptions): OracleList {
  return v1FilterOracleList(options, { path: '/v1/customer', key: 'number', expected: expectedCustomerNumbers });
}
