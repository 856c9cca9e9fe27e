import { v1PageBodyFromJson } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { customerTimeBucketedPageQuery, isTimeBucketedListQuery } from './customer-time-buckets.queries';
import { customerBucketedPageQuery, customerCountQuery, customerPageQuery, isBucketedListQuery } from './customers.queries';

/** Runs SQL and returns its rows: TypeORM's `DataSource.query` or pg's `Pool.query(...).rows`. */
export type RunSql = <Row>(text: string, values: unknown[]) => Promise<Row[]>;

/**
 * One page of the customer list as the v1 body text: a bare array in which every record
 * carries `metadata { totalCount, maxPageSize }`. The count is always exact.
 */
export async function readCustomerPage(
  run: RunSql,
  companyId: string,
  query: CustomerListQuery,
): Promise<string> {
  // Company and status, or timestamp ranges with an optional status: one statement over the
  // bucket counts, whatever the page. Anything else: an exact count and an OFFSET, concurrently.
  const q = isBucketedListQuery(query)
    ? customerBucketedPageQuery(companyId, query)
    : isTimeBucketedListQuery(query)
      ? customerTimeBucketedPageQuery(companyId, query)
      : undefined;
  if (q) {
    const rows = await run<{ total: number; json: string }>(q.text, q.values);
    return v1PageBodyFromJson(
      rows.map((r) => r.json),
      rows.length > 0 ? rows[0].total : 0,
      query.page.maxPageSize,
    );
  }
  const page = customerPageQuery(companyId, query);
  const count = customerCountQuery(companyId, query);
  const [rows, counted] = await Promise.all([
    run<{ json: string }>(page.text, page.values),
    run<{ total: number }>(count.text, count.values),
  ]);
  return v1PageBodyFromJson(
    rows.map((r) => r.json),
    counted[0].total,
    query.page.maxPageSize,
  );
}
