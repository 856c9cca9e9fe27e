import type { RunSql } from '@erp/database';
import { v1PageBodyFromJson } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { customerNameCountedPageQuery, isNameCountedListQuery, nameFragment } from './customer-name-counts.queries';
import { customerTimeBucketedPageQuery, isTimeBucketedListQuery } from './customer-time-buckets.queries';
import { CUSTOMER_JSON, customerBucketedPageQuery, customerCountQuery, customerPageQuery, isBucketedListQuery, type SqlQuery } from './customers.queries';

// Runs SQL and returns its rows (TypeORM's `DataSource.query`, pg's `Pool.query(...).rows`): the
// baseline and the specs name it from here.
export type { RunSql };

/** One page's records as JSON text, and the exact total when the page's statements know it. */
export interface CustomerRows {
  items: string[];
  /** Absent only for a page past the end read by a one-statement path: no row carried the total. */
  totalCount?: number;
}

/**
 * What the service learns about a `name` filter's counts while reading a page (the service keeps
 * the counts; this library only reads them).
 */
export interface NameCountObserver {
  /** The company's counts of `fragment` answered the page. */
  counted(companyId: string, fragment: string): void;
  /** The company has no counts of `fragment` (or the page was past the end): `matches` rows were counted from the rows. */
  notCounted(companyId: string, fragment: string, matches: number): void;
}

/**
 * The single statement that answers a list request with its total in every row (the bucket
 * counts, the time cells, a name's kept counts), or undefined for the requests read by an exact
 * count and an OFFSET (readCustomerRows).
 */
export function customerPageStatement(companyId: string, query: CustomerListQuery, json = CUSTOMER_JSON): SqlQuery | undefined {
  if (isNameCountedListQuery(query)) return customerNameCountedPageQuery(companyId, query, json);
  if (isBucketedListQuery(query)) return customerBucketedPageQuery(companyId, query, json);
  if (isTimeBucketedListQuery(query)) return customerTimeBucketedPageQuery(companyId, query, json);
  return undefined;
}

/**
 * One page of the customer list, each record rendered by `json` (the v1 record by default; the v3
 * view's for `/api/v3/Customers`). Company and status, or timestamp ranges with an optional status:
 * one statement over the bucket counts, whatever the page. A name the company's name counts hold,
 * with those filters: one statement over its cells. Anything else, or a page past the end of a
 * counted name: an exact count and an OFFSET, concurrently.
 */
export async function readCustomerRows(
  run: RunSql,
  companyId: string,
  query: CustomerListQuery,
  json = CUSTOMER_JSON,
  names?: NameCountObserver,
): Promise<CustomerRows> {
  const fragment = isNameCountedListQuery(query) && query.name !== undefined ? nameFragment(query.name) : undefined;
  const statement = customerPageStatement(companyId, query, json);
  if (statement) {
    const rows = await run<{ total: number; json: string }>(statement.text, statement.values);
    if (rows.length > 0 && fragment !== undefined) names?.counted(companyId, fragment);
    // No row from a name's statement: past the end, or no counts kept; the count below tells.
    if (rows.length > 0 || fragment === undefined) {
      return { items: rows.map((r) => r.json), ...(rows.length > 0 ? { totalCount: rows[0].total } : {}) };
    }
  }
  const page = customerPageQuery(companyId, query, json);
  const count = customerCountQuery(companyId, query);
  const [rows, counted] = await Promise.all([
    run<{ json: string }>(page.text, page.values),
    run<{ total: number }>(count.text, count.values),
  ]);
  if (fragment !== undefined) names?.notCounted(companyId, fragment, counted[0].total);
  return { items: rows.map((r) => r.json), totalCount: counted[0].total };
}

/**
 * One page of the customer list as the v1 body text: a bare array in which every record
 * carries `metadata { totalCount, maxPageSize }`. The count is always exact (an empty page
 * carries none).
 */
export async function readCustomerPage(run: RunSql, companyId: string, query: CustomerListQuery, names?: NameCountObserver): Promise<string> {
  const { items, totalCount } = await readCustomerRows(run, companyId, query, CUSTOMER_JSON, names);
  return v1PageBodyFromJson(items, totalCount ?? 0, query.page.maxPageSize);
}
