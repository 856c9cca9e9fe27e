import {
  bucketSeekPageSql,
  isRangeOperator,
  pageParameters,
  timeBucketedCountsSql,
  type TimeBucketCells,
  type TimeRange,
  type V1DateTimeFilter,
} from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { CUSTOMER_JSON, customersList, type SqlQuery } from './customers.queries';

/**
 * The time buckets of `customer_time_buckets` are cut by `customer_time_bucket()` (migration
 * 1765200000000) and start at `customer_time_bucket_start()` (1766800000000): their width (about 24
 * days) is the schema's. Wider buckets mean fewer cells to sum per request but more boundary rows
 * counted from the index.
 */
const CUSTOMER_TIME_CELLS: TimeBucketCells = {
  table: 'customer_time_buckets',
  timeFunction: 'customer_time_bucket',
  timeBucketStart: 'customer_time_bucket_start',
  // One range is counted from the cheaper side (the cells' time indexes: migration 1765500000000).
  totals: { table: 'customer_list_buckets', bucketColumn: 'bucket' },
};

interface TimeDimension {
  filter: V1DateTimeFilter;
  /** The row's column and the cell's bucket column. */
  column: string;
  bucket: string;
}

function timeDimensions(query: CustomerListQuery): TimeDimension[] {
  const dimensions: TimeDimension[] = [];
  if (query.lastModified) dimensions.push({ filter: query.lastModified, column: 'c.last_modified_at', bucket: 'modified_bucket' });
  if (query.created) dimensions.push({ filter: query.created, column: 'c.created_at', bucket: 'created_bucket' });
  return dimensions;
}

/**
 * Whether the time-bucket counts answer this request: one or both timestamp filters with a range
 * operator, optionally `status`, nothing else. `=` matches one instant (a handful of rows, counted
 * directly); name, corporateId and vatRegistrationId are not in the cells.
 */
export function isTimeBucketedListQuery(query: CustomerListQuery): boolean {
  return (
    timeDimensions(query).length > 0 &&
    hasOnlyTimeRanges(query) &&
    query.name === undefined &&
    query.corporateId === undefined &&
    query.vatRegistrationId === undefined &&
    query.text === undefined
  );
}

/**
 * A timestamp-filtered page (see isTimeBucketedListQuery) in one statement, in time independent
 * of the page number and of the company's size:
 * - the count per id bucket (2^14 internal ids) is the sum of the cells of `customer_time_buckets`
 *   whose time buckets lie strictly inside every range, plus the rows of each range's boundary
 *   time bucket, counted exactly from the timestamp's covering index (a row in both boundary
 *   buckets is counted once, by the first);
 * - the total is their sum, and the page starts in the id bucket where the running count passes
 *   the offset: at most one id bucket of index entries is skipped, whatever the page number.
 * The order stays `internal_id`, the same as every other list.
 */
export function customerTimeBucketedPageQuery(companyId: string, query: CustomerListQuery, json = CUSTOMER_JSON): SqlQuery {
  const { values, param } = pageParameters(companyId, query.page);
  const status = query.status === undefined ? '' : ` AND status = ${param(query.status)}`;
  const counts = timeBucketedCountsSql(customersList(json), CUSTOMER_TIME_CELLS, timeRanges(query, param), status, status.replace('status', 'c.status'));
  // Not prepared (see customerBucketedPageQuery): a generic plan does not know how wide the ranges
  // are, and PostgreSQL chose one 4x slower for two ranges (docs/benchmark-history/2026-11-28-cost-per-request.md).
  return { text: bucketSeekPageSql(customersList(json), counts.perBucket, counts.rowConditions), values };
}

/**
 * The request's timestamp filters as ranges over cells with `modified_bucket` and `created_bucket`
 * (customer_time_buckets, customer_name_cells), their instants bound with `param`. Operators come
 * from the parser's fixed set, never from raw input; `=` is never answered by cells.
 */
export function timeRanges(query: CustomerListQuery, param: (value: unknown) => string): TimeRange[] {
  return timeDimensions(query).map((d) => {
    if (!isRangeOperator(d.filter.operator)) throw new Error('= is not answered by the time buckets');
    return { operator: d.filter.operator, at: `${param(d.filter.value)}::timestamptz`, column: d.column, bucket: d.bucket };
  });
}

/** Whether every timestamp filter of the request (if any) is a range the time cells answer. */
export function hasOnlyTimeRanges(query: CustomerListQuery): boolean {
  return timeDimensions(query).every((d) => d.filter.operator !== '=');
}
