import { prepared } from '@erp/database';
import { bucketSeekPageSql, pageParameters, timeBucketedCountsSql, type TimeBucketCells } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { hasOnlyTimeRanges, timeRanges } from './customer-time-buckets.queries';
import { CUSTOMER_JSON, customersList, type SqlQuery } from './customers.queries';

/**
 * The buckets of `customer_name_cells`, whose widths are the schema's (customers-v1 migrations
 * 1766200000000 and 1766800000000):
 * - id buckets of 2^12 internal ids (`customer_name_id_bucket()`), narrower than the list cells'
 *   2^14 because the page seek rechecks the name of every row of the bucket it starts in (about
 *   0.3 µs a row);
 * - time buckets of 2^19 s, about 6 days (`customer_name_time_bucket()`), a quarter of the list
 *   cells': a name with a range rechecks the name of every row of its boundary bucket, and a
 *   quarter of those rows saved more than the extra cells cost (at 1M customers, a name in 7% of
 *   them: 20,100 cells instead of 12,800; the boundary count of a `>=` median 0.9 ms instead of 2.9).
 */
const NAME_CELLS: TimeBucketCells = { table: 'customer_name_cells', timeFunction: 'customer_name_time_bucket', timeBucketStart: 'customer_name_time_bucket_start' };
const NAME_ID_BUCKETS = { idBucket: 'customer_name_id_bucket', idBucketStart: 'customer_name_id_bucket_start' };

/**
 * The fragment a `name` filter is counted under: lower-cased here as the filter's LIKE pattern is,
 * so that the cells' `strpos(lower(name), fragment)` selects exactly the filter's rows.
 */
export function nameFragment(name: string): string {
  return name.toLowerCase();
}

/**
 * Whether a company's name counts may answer this request: a non-empty `name`, optionally
 * `status` and timestamp ranges; corporateId and vatRegistrationId match a handful of rows and
 * are cheaper counted from their own indexes.
 */
export function isNameCountedListQuery(query: CustomerListQuery): boolean {
  return (
    query.name !== undefined &&
    query.name !== '' &&
    query.corporateId === undefined &&
    query.vatRegistrationId === undefined &&
    query.text === undefined &&
    hasOnlyTimeRanges(query)
  );
}

/**
 * A name-filtered page (see isNameCountedListQuery) in one statement over the cells of the
 * request's fragment, the same way as the timestamp-filtered list (`timeBucketedCountsSql`,
 * `bucketSeekPageSql`), with id buckets of 2^12. When the company has no counts for the fragment
 * (never registered, still being built, or dropped as least recently used) the statement returns no rows, as it does
 * for a page past the end: the caller then counts the rows themselves (`readCustomerRows`).
 */
export function customerNameCountedPageQuery(companyId: string, query: CustomerListQuery, json = CUSTOMER_JSON): SqlQuery {
  if (!isNameCountedListQuery(query) || query.name === undefined) throw new Error('not a name-counted request');
  const { values, param } = pageParameters(companyId, query.page);
  const fragment = param(nameFragment(query.name));
  const status = query.status === undefined ? '' : ` AND status = ${param(query.status)}`;
  // Only a `ready` fragment's cells are complete (customers-v1 migration 1766400000000).
  const cellConditions = ` AND fragment_id = (SELECT id FROM customer_name_fragments WHERE company_id = $1 AND fragment = ${fragment} AND state = 'ready')${status}`;
  // strpos, not the trigram LIKE: the rows are read by id range, and the cells use strpos too.
  const rowConditions = ` AND strpos(lower(c.name), ${fragment}) > 0${status.replace('status', 'c.status')}`;
  const list = { ...customersList(json), ...NAME_ID_BUCKETS };
  const ranges = timeRanges(query, param);
  const counts =
    ranges.length > 0
      ? timeBucketedCountsSql(list, NAME_CELLS, ranges, cellConditions, rowConditions)
      : { perBucket: `SELECT id_bucket, sum(row_count) FROM customer_name_cells WHERE company_id = $1${cellConditions} GROUP BY 1`, rowConditions };
  const text = bucketSeekPageSql(list, counts.perBucket, counts.rowConditions);
  // Prepared without time ranges only: a generic plan does not know how wide a range is (customerTimeBucketedPageQuery).
  return { text: ranges.length > 0 ? text : prepared(text), values };
}
