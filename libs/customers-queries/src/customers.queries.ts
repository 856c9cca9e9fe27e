import type { CustomerListQuery } from './customer-list.query';

/**
 * The customer's wire shape, built by Postgres. Lists and single reads return this text as it is:
 * no ORM objects, no JSON.parse/stringify per row. Timestamps are UTC without zone, to the
 * millisecond (what is stored), so a value read back works as a filter value unchanged.
 */
export const CUSTOMER_JSON = `json_build_object(
    'internalId', c.internal_id,
    'number', c.number,
    'name', c.name,
    'status', c.status,
    'mainAddress', c.main_address,
    'mainContact', c.main_contact,
    'corporateId', c.corporate_id,
    'vatRegistrationId', c.vat_registration_id,
    'currencyId', c.currency_id,
    'creditTerms', c.credit_terms,
    'createdDateTime', to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS'),
    'lastModifiedDateTime', to_char(c.last_modified_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS'),
    'timeStamp', c.version::text
  )::text`;

export interface SqlQuery {
  text: string;
  values: unknown[];
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** WHERE clause of a list request: always scoped by company, then each filter given. */
function whereClause(companyId: string, query: CustomerListQuery): { sql: string; values: unknown[] } {
  const values: unknown[] = [companyId];
  const conditions = ['c.company_id = $1'];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (query.name !== undefined) add((p) => `lower(c.name) LIKE '%' || ${p} || '%' ESCAPE '\\'`, escapeLike(query.name.toLowerCase()));
  if (query.status !== undefined) add((p) => `c.status = ${p}`, query.status);
  if (query.corporateId !== undefined) add((p) => `c.corporate_id = ${p}`, query.corporateId);
  if (query.vatRegistrationId !== undefined) add((p) => `c.vat_registration_id = ${p}`, query.vatRegistrationId);
  // Operators come from a fixed set checked by the parser, never from raw input.
  const { lastModified, created } = query;
  if (lastModified) add((p) => `c.last_modified_at ${lastModified.operator} ${p}::timestamptz`, lastModified.value);
  if (created) add((p) => `c.created_at ${created.operator} ${p}::timestamptz`, created.value);
  return { sql: conditions.join(' AND '), values };
}

export function customerPageQuery(companyId: string, query: CustomerListQuery): SqlQuery {
  const where = whereClause(companyId, query);
  const n = where.values.length;
  return {
    // internal_id is unique: the order is total, so pages neither overlap nor skip.
    text: `SELECT ${CUSTOMER_JSON} AS json FROM customers c WHERE ${where.sql}
           ORDER BY c.internal_id LIMIT $${n + 1} OFFSET $${n + 2}`,
    values: [...where.values, query.page.pageSize, query.page.offset],
  };
}

export function customerCountQuery(companyId: string, query: CustomerListQuery): SqlQuery {
  const where = whereClause(companyId, query);
  return { text: `SELECT count(*)::int AS total FROM customers c WHERE ${where.sql}`, values: where.values };
}

export function customerByNumberQuery(companyId: string, number: string): SqlQuery {
  return {
    text: `SELECT ${CUSTOMER_JSON} AS json, c.version::text AS version FROM customers c
           WHERE c.company_id = $1 AND c.number = $2`,
    values: [companyId, number],
  };
}
