import type { V1DateTimeFilter } from '@erp/paging';
import type { CustomerListQuery } from './customer-list.query';
import { bucketSeekPageSql, CUSTOMER_JSON, LIST_BUCKET_BITS, type SqlQuery } from './customers.queries';

/**
 * Width of a time bucket of `customer_time_buckets`, as a shift of epoch seconds (2^21 s, about
 * 24 days). Must equal the shift of `customer_time_bucket()` (migration 1765200000000). Wider
 * buckets mean fewer cells to sum per request but more boundary rows counted from the index.
 */
export const TIME_BUCKET_BITS = 21;

/** How many cells of each side of a single range are counted to choose the side to sum (see below). */
const SIDE_COUNT_CAP = 2000;

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
  const dimensions = timeDimensions(query);
  return (
    dimensions.length > 0 &&
    dimensions.every((d) => d.filter.operator !== '=') &&
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
  const values: unknown[] = [companyId, query.page.pageSize, query.page.offset];
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  const status = query.status === undefined ? '' : ` AND status = ${param(query.status)}`;
  const rowStatus = status.replace('status', 'c.status');
  const dimensions = timeDimensions(query).map((d) => {
    const at = `${param(d.filter.value)}::timestamptz`;
    const bucket = `customer_time_bucket(${at})`;
    const upward = d.filter.operator.startsWith('>');
    // Operators come from the parser's fixed set, never from raw input.
    const inside = `${d.bucket} ${upward ? '>' : '<'} ${bucket}`;
    const notInside = `${d.bucket} ${upward ? '<=' : '>='} ${bucket}`;
    return {
      exact: `${d.column} ${d.filter.operator} ${at}`,
      inside,
      notInside,
      // Whether fewer cells lie outside the range than inside, counting each side's index entries
      // only up to a cap: a side with more is large either way, and then the cells inside are read.
      fewerCellsOutside: `((SELECT count(*) FROM (SELECT FROM customer_time_buckets WHERE company_id = $1 AND ${notInside} LIMIT ${SIDE_COUNT_CAP}) o)
                          < (SELECT count(*) FROM (SELECT FROM customer_time_buckets WHERE company_id = $1 AND ${inside} LIMIT ${SIDE_COUNT_CAP}) i))`,
      boundary: `${d.column} >= to_timestamp((${bucket}::bigint << ${TIME_BUCKET_BITS})::float8)
                 AND ${d.column} < to_timestamp(((${bucket} + 1)::bigint << ${TIME_BUCKET_BITS})::float8)`,
    };
  });
  const exact = dimensions.map((d) => ` AND ${d.exact}`).join('');
  const boundaryCounts = dimensions.map((d, i) => {
    const earlier = dimensions.slice(0, i).map((e) => ` AND NOT (${e.boundary})`).join('');
    return `SELECT c.internal_id >> ${LIST_BUCKET_BITS}, count(*) FROM customers c
            WHERE c.company_id = $1${rowStatus}${exact} AND ${d.boundary}${earlier} GROUP BY 1`;
  });
  const cellsInside = (guard: string) => `SELECT id_bucket, sum(row_count) FROM customer_time_buckets
                 WHERE company_id = $1${status} AND ${dimensions.map((d) => d.inside).join(' AND ')}${guard} GROUP BY 1`;
  let cells = cellsInside('');
  if (dimensions.length === 1) {
    // One range: when fewer cells lie outside it than inside (a sync from before most changes), the
    // cells inside are the id bucket's total (customer_list_buckets) minus the cells outside, and
    // the boundary bucket (counted from the index below) is subtracted with them. Both branches are
    // in the statement; the guard, evaluated once, leaves one of them empty without reading it. A
    // side's extent in time says little about its cells (recent buckets hold cells of every id
    // bucket), so the guard counts them, up to SIDE_COUNT_CAP per side.
    const [d] = dimensions;
    cells = `WITH side AS MATERIALIZED (SELECT ${d.fewerCellsOutside} AS outside)
             ${cellsInside(' AND NOT (SELECT outside FROM side)')}
             UNION ALL SELECT bucket, sum(row_count) FROM customer_list_buckets
               WHERE company_id = $1${status} AND (SELECT outside FROM side) GROUP BY 1
             UNION ALL SELECT id_bucket, -sum(row_count) FROM customer_time_buckets
               WHERE company_id = $1${status} AND ${d.notInside} AND (SELECT outside FROM side) GROUP BY 1`;
  }
  return { text: bucketSeekPageSql([cells, ...boundaryCounts].join('\n UNION ALL '), `${rowStatus}${exact}`, json), values };
}
