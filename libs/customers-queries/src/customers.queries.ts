import { prepared } from '@erp/database';
import { bucketSeekPageSql, type BucketedList } from '@erp/paging';
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
  if (query.text !== undefined) {
    add(
      (p) => `(lower(c.name) LIKE '%' || ${p} || '%' ESCAPE '\\' OR lower(c.number) LIKE '%' || ${p} || '%' ESCAPE '\\'
        OR lower(c.vat_registration_id) LIKE '%' || ${p} || '%' ESCAPE '\\')`,
      escapeLike(query.text.toLowerCase()),
    );
  }
  return { sql: conditions.join(' AND '), values };
}

/**
 * One page of any filter. The page's ids are found first (an index-only scan when the filter is
 * company and status) and only those 100 rows are turned into JSON: with `SELECT json ... OFFSET`
 * Postgres would build the JSON of every skipped row too (2.9 s at offset 400k).
 */
export function customerPageQuery(companyId: string, query: CustomerListQuery, json = CUSTOMER_JSON): SqlQuery {
  const where = whereClause(companyId, query);
  const n = where.values.length;
  return {
    // internal_id is unique: the order is total, so pages neither overlap nor skip.
    text: `SELECT ${json} AS json
           FROM (SELECT c.internal_id FROM customers c WHERE ${where.sql}
                 ORDER BY c.internal_id LIMIT $${n + 1} OFFSET $${n + 2}) page
           JOIN customers c ON c.internal_id = page.internal_id
           ORDER BY c.internal_id`,
    values: [...where.values, query.page.pageSize, query.page.offset],
  };
}

export function customerCountQuery(companyId: string, query: CustomerListQuery): SqlQuery {
  const where = whereClause(companyId, query);
  return { text: `SELECT count(*)::int AS total FROM customers c WHERE ${where.sql}`, values: where.values };
}

/** Whether a list request filters by nothing but the company and, optionally, the status. */
export function isBucketedListQuery(query: CustomerListQuery): boolean {
  return (
    query.name === undefined &&
    query.corporateId === undefined &&
    query.vatRegistrationId === undefined &&
    query.lastModified === undefined &&
    query.created === undefined &&
    query.text === undefined
  );
}

/**
 * The common list (company, optionally status) in one statement, in time independent of the
 * company's size: the exact total is the sum of the company's bucket counts, and the page starts
 * in the bucket where the running count passes the offset, so at most one bucket's worth of index
 * entries is skipped rather than `offset` of them. Every row carries the total (`total`); an
 * empty page has no rows (and needs no total). Only for `isBucketedListQuery` requests.
 */
export function customerBucketedPageQuery(companyId: string, query: CustomerListQuery, json = CUSTOMER_JSON): SqlQuery {
  const values: unknown[] = [companyId, query.page.pageSize, query.page.offset];
  let statusCondition = '';
  if (query.status !== undefined) {
    values.push(query.status);
    statusCondition = ` AND status = $4`;
  }
  const perBucket = `SELECT bucket, sum(row_count) FROM customer_list_buckets WHERE company_id = $1${statusCondition} GROUP BY bucket`;
  // Prepared (planned once per connection): company and status are equalities whose generic plan is
  // the custom one, so planning, most of this statement's server CPU, is not repeated at every page.
  // Statements with time ranges are not: a generic plan does not know how wide a range is.
  return { text: prepared(bucketSeekPageSql(customersList(json), perBucket, statusCondition.replace('status', 'c.status'))), values };
}

/**
 * The customers table as a bucketed list. Its id buckets are those of `customer_list_buckets` and
 * `customer_time_buckets`, whose triggers (customers-v1 migrations 1763800000000, 1765200000000)
 * cut them as `customer_list_id_bucket()` does (migration 1766800000000): the width is the schema's.
 */
export function customersList(json = CUSTOMER_JSON): BucketedList {
  return { table: 'customers', alias: 'c', idBucket: 'customer_list_id_bucket', idBucketStart: 'customer_list_id_bucket_start', json };
}

export function customerByNumberQuery(companyId: string, number: string): SqlQuery {
  return {
    text: `SELECT ${CUSTOMER_JSON} AS json, c.version::text AS version FROM customers c
           WHERE c.company_id = $1 AND c.number = $2`,
    values: [companyId, number],
  };
}
