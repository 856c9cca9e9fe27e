import { v1PageBodyFromJson } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { customerTimeBucketedPageQuery, isTimeBucketedListQuery } from './customer-time-buckets.queries';
import { CUSTOMER_JSON, customerBucketedPageQuery, customerCountQuery, customerPageQuery, isBucketedListQuery } from './customers.queries';

/** Runs SQL and returns its rows: TypeORM's `DataSource.query` or pg's `Pool.query(...).rows`. */
export type RunSql = <Row>(text: string, values: unknown[]) => Promise<Row[]>;

/** One page's records as JSON text, and the exact total when the page's statements know it. */
export interface CustomerRows {
  items: string[];
  /** Absent only for a page past the end read by a one-statement path: no row carried the total. */
  totalCount?: number;
}

/**
 * One page of the customer list, each record rendered by `json` (the v1 record by default; the v3
 * view's for `/api/v3/Customers`). Company and status, or timestamp ranges with an optional status:
 * one statement over the bucket counts, whatever the page. Anything else: an exact count and an
 * OFFSET, concurrently.
 */
export async function readCustomerRows(run: RunSql, companyId: string, query: CustomerListQuery, json = CUSTOMER_JSON): Promise<CustomerRows> {
  const q = isBucketedListQuery(query)
    ? customerBucketedPageQuery(companyId, query, json)
    : isTimeBucketedListQuery(query)
      ? customerTimeBucketedPageQuery(companyId, query, json)
      : undefined;
  if (q) {
    const rows = await run<{ total: number; json: string }>(q.text, q.values);
    return { items: rows.map((r) => r.json), ...(rows.length > 0 ? { totalCount: rows[0].total } : {}) };
  }
  const page = customerPageQuery(companyId, query, json);
  const count = customerCountQuery(companyId, query);
  const [rows, counted] = await Promise.all([
    run<{ json: string }>(page.text, page.values),
    run<{ total: number }>(count.text, count.values),
  ]);
  return { items: rows.map((r) => r.json), totalCount: counted[0].total };
}

/**
 * One page of the customer list as the v1 body text: a bare array in which every record
 * carries `metadata { totalCount, maxPageSize }`. The count is always exact (an empty page
 * carries none).
 */
export async function readCustomerPage(run: RunSql, companyId: string, query: CustomerListQuery): Promise<string> {
  const { items, totalCount } = await readCustomerRows(run, companyId, query);
  return v1PageBodyFromJson(items, totalCount ?? 0, query.page.maxPageSize);
}
