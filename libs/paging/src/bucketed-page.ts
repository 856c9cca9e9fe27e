import type { ComparisonOperator } from './v1-date-filter';

/**
 * The table a bucketed list pages over. Its rows are ordered by a unique bigint `internal_id`; an
 * id bucket is `idBucket(internal_id)`, a SQL function of the owner's schema, the one its count
 * triggers' width is checked against (so no width is written here or by the caller). Each team
 * keeps its own tables, cells and JSON; this only assembles the statement around them.
 */
export interface BucketedList {
  /** The table, e.g. `customers`. */
  table: string;
  /** Its alias in `json` and in the row conditions, e.g. `c`. */
  alias: string;
  /** The SQL function giving an `internal_id`'s bucket, e.g. `customer_list_id_bucket`. */
  idBucket: string;
  /** The SQL function giving a bucket's first `internal_id`, e.g. `customer_list_id_bucket_start`. */
  idBucketStart: string;
  /** The row's rendering, built by Postgres from the alias's columns. */
  json: string;
}

/**
 * The statement of a bucketed page ($1 company, $2 pageSize, $3 offset): `perBucket` yields
 * (id bucket, row count) rows, several per bucket allowed; the exact total is their sum, and the
 * page starts in the id bucket where the running count passes the offset, skipping at most one
 * bucket of index entries; the scan also stops at the end of the bucket where the page's last row
 * lies (a short last page would otherwise read every later entry of an index that holds rows not
 * matching the filter). A page that lies in one bucket, in its second half, is read from the
 * bucket's end (the reverse order with the mirrored offset): a page at the end of a bucket whose
 * matches are sparse (the last page of `lastModifiedDateTime <` a median, where new ids were mostly
 * modified later) skips from the nearer end, so no page skips more than half a bucket of entries.
 * Every row carries the total (`total`); an empty page has no rows (nor
 * needs one). `rowConditions` (each starting with ` AND `, after the company) must select exactly
 * the rows that `perBucket` counts. JSON is built for the page's rows only.
 */
export function bucketSeekPageSql(list: BucketedList, perBucket: string, rowConditions: string): string {
  const { table, alias: a, idBucketStart } = list;
  const rows = `FROM ${table} ${a}
               WHERE ${a}.company_id = $1${rowConditions}
                 AND ${a}.internal_id >= (SELECT ${idBucketStart}(bucket) FROM start)
                 AND ${a}.internal_id < (SELECT ${idBucketStart}(bucket + 1) FROM stop)`;
  return `WITH ${runningCountCtes(perBucket, 'asc')}, mirror AS MATERIALIZED (
             SELECT start.bucket = stop.bucket AND ($3 - start.before) * 2 > start.n AS reversed,
                    least($2::bigint, start.n - ($3 - start.before)) AS take,
                    greatest(0, start.n - ($3 - start.before) - $2::bigint) AS skip_from_end
             FROM start, stop
           ), page AS (
             (SELECT ${a}.internal_id ${rows} AND NOT (SELECT reversed FROM mirror)
              ORDER BY ${a}.internal_id LIMIT $2 OFFSET (SELECT $3 - before FROM start))
             UNION ALL
             (SELECT ${a}.internal_id ${rows} AND (SELECT reversed FROM mirror)
              ORDER BY ${a}.internal_id DESC LIMIT (SELECT take FROM mirror) OFFSET (SELECT skip_from_end FROM mirror))
           )
           SELECT (SELECT sum(n) FROM counts)::int AS total, ${list.json} AS json
           FROM page JOIN ${table} ${a} ON ${a}.internal_id = page.internal_id
           ORDER BY ${a}.internal_id`;
}

/**
 * The CTEs that place a page of offset semantics ($2 pageSize, $3 offset) among buckets, walked in
 * `direction`: `per_bucket` (bucket, n) from `perBucket` (several rows per bucket allowed),
 * `merged` (one per bucket), `counts` (with the running count `upto`), `start` (the bucket where
 * the running count passes the offset, `before`, the rows ahead of it, and `n`, its rows) and `stop` (the bucket
 * holding the page's last row, else the last bucket). Nothing here knows what a bucket is: the
 * lists' id buckets (bucketSeekPageSql) and the sales orders' sort-key buckets use it.
 */
export function runningCountCtes(perBucket: string, direction: 'asc' | 'desc'): string {
  const [dir, reverse] = direction === 'desc' ? ['DESC', 'ASC'] : ['ASC', 'DESC'];
  return `per_bucket (bucket, n) AS (${perBucket}
           ), merged AS (
             SELECT bucket, sum(n) AS n FROM per_bucket GROUP BY bucket
           ), counts AS (
             SELECT bucket, n, sum(n) OVER (ORDER BY bucket ${dir}) AS upto FROM merged
           ), start AS (
             SELECT bucket, upto - n AS before, n FROM counts WHERE upto > $3 ORDER BY bucket ${dir} LIMIT 1
           ), stop AS (
             SELECT coalesce((SELECT bucket FROM counts WHERE upto >= $3::bigint + $2::bigint ORDER BY bucket ${dir} LIMIT 1),
                             (SELECT bucket FROM counts ORDER BY bucket ${reverse} LIMIT 1)) AS bucket
           )`;
}

/**
 * Counts kept per time bucket: a cells table holding, per id bucket and per time bucket of one or
 * more timestamps, the exact number of rows (kept by the owner's statement triggers). A time
 * bucket is `timeFunction(at)`; `timeBucketStart(bucket)` is its first instant, and the next
 * bucket's start its end (SQL functions of the owner's schema, like the list's id buckets).
 */
export interface TimeBucketCells {
  /** The cells table; its id bucket column is `id_bucket`, its count `row_count`, and it has `company_id`. */
  table: string;
  /** The SQL function giving a timestamp's bucket, e.g. `customer_time_bucket`. */
  timeFunction: string;
  /** The SQL function giving a time bucket's first instant, e.g. `customer_time_bucket_start`. */
  timeBucketStart: string;
  /**
   * The rows per id bucket without a time range, if the owner keeps them (e.g.
   * `customer_list_buckets`): with it, a single range may be counted as these totals minus the
   * cells outside it. The cells table must then have an index on `(company_id, <bucket column>)`
   * for each time bucket column: the choice of side counts their entries.
   */
  totals?: { table: string; bucketColumn: string };
}

/** How many cells of each side of a single range are counted to choose the side to sum. */
const SIDE_COUNT_CAP = 2000;

/** The operators the cells answer; `=` matches one instant and is counted from the rows. */
export type RangeOperator = Exclude<ComparisonOperator, '='>;

export function isRangeOperator(operator: ComparisonOperator): operator is RangeOperator {
  return operator !== '=';
}

/** One timestamp filter over the cells. */
export interface TimeRange {
  operator: RangeOperator;
  /** The instant as SQL, e.g. `$5::timestamptz`. */
  at: string;
  /** The row's column, alias included, e.g. `c.last_modified_at`. */
  column: string;
  /** The cell's bucket column, e.g. `modified_bucket`. */
  bucket: string;
}

/**
 * The `perBucket` and row conditions of a page filtered by timestamp ranges (and conditions the
 * cells hold as columns, e.g. status):
 * - the cells whose time buckets lie strictly inside every range, summed per id bucket;
 * - plus the rows of each range's boundary time bucket, counted exactly from the rows (a covering
 *   index on the timestamp makes it an index-only scan of one time bucket); a row in several
 *   boundary buckets is counted by the first only.
 * `cellConditions` filter the cells (columns without alias); `rowConditions` are the same
 * conditions on the rows (with the alias). Both start with ` AND ` or are empty.
 */
export function timeBucketedCountsSql(
  list: BucketedList,
  cells: TimeBucketCells,
  ranges: TimeRange[],
  cellConditions: string,
  rowConditions: string,
): { perBucket: string; rowConditions: string } {
  const a = list.alias;
  const parts = ranges.map((r) => {
    const bucket = `${cells.timeFunction}(${r.at})`;
    return {
      exact: `${r.column} ${r.operator} ${r.at}`,
      inside: `${r.bucket} ${r.operator.startsWith('>') ? '>' : '<'} ${bucket}`,
      boundary: `${r.column} >= ${cells.timeBucketStart}(${bucket}) AND ${r.column} < ${cells.timeBucketStart}(${bucket} + 1)`,
    };
  });
  const exact = `${rowConditions}${parts.map((p) => ` AND ${p.exact}`).join('')}`;
  const boundaryCounts = parts.map((p, i) => {
    const earlier = parts.slice(0, i).map((e) => ` AND NOT (${e.boundary})`).join('');
    return `SELECT ${list.idBucket}(${a}.internal_id), count(*) FROM ${list.table} ${a}
            WHERE ${a}.company_id = $1${exact} AND ${p.boundary}${earlier} GROUP BY 1`;
  });
  const inside = parts.map((p) => ` AND ${p.inside}`).join('');
  const sumInside = (guard: string) => `SELECT id_bucket, sum(row_count) FROM ${cells.table}
                 WHERE company_id = $1${cellConditions}${inside}${guard} GROUP BY 1`;
  const sum = ranges.length === 1 && cells.totals ? singleRangeSum(cells, cells.totals, ranges[0], cellConditions, sumInside) : sumInside('');
  return { perBucket: [sum, ...boundaryCounts].join('\n UNION ALL '), rowConditions: exact };
}

/**
 * One range: when fewer cells lie outside it than inside (a sync from before most changes), the
 * cells inside are the id bucket's total minus the cells outside, the boundary bucket included
 * (its matching rows are added from the rows, in both branches alike). Both branches are in the
 * statement; the guard, evaluated once, leaves one of them empty without reading it. A side's
 * extent in time says little about its cells (recent time buckets hold cells of every id bucket),
 * so the guard counts each side's cells up to SIDE_COUNT_CAP; when both are large it sums the
 * cells inside.
 */
function singleRangeSum(
  cells: TimeBucketCells,
  totals: NonNullable<TimeBucketCells['totals']>,
  range: TimeRange,
  cellConditions: string,
  sumInside: (guard: string) => string,
): string {
  const bucket = `${cells.timeFunction}(${range.at})`;
  const upward = range.operator.startsWith('>');
  const insideCells = `${range.bucket} ${upward ? '>' : '<'} ${bucket}`;
  const outsideCells = `${range.bucket} ${upward ? '<=' : '>='} ${bucket}`;
  const countUpToCap = (condition: string) =>
    `(SELECT count(*) FROM (SELECT FROM ${cells.table} WHERE company_id = $1 AND ${condition} LIMIT ${SIDE_COUNT_CAP}) side)`;
  return `WITH side AS MATERIALIZED (SELECT ${countUpToCap(outsideCells)} < ${countUpToCap(insideCells)} AS outside)
             ${sumInside(' AND NOT (SELECT outside FROM side)')}
             UNION ALL SELECT ${totals.bucketColumn}, sum(row_count) FROM ${totals.table}
               WHERE company_id = $1${cellConditions} AND (SELECT outside FROM side) GROUP BY 1
             UNION ALL SELECT id_bucket, -sum(row_count) FROM ${cells.table}
               WHERE company_id = $1${cellConditions} AND ${outsideCells} AND (SELECT outside FROM side) GROUP BY 1`;
}

/** Bound parameters of a statement: `$1` company, `$2` pageSize, `$3` offset, then `param(value)`. */
export function pageParameters(companyId: string, page: { pageSize: number; offset: number }): { values: unknown[]; param: (value: unknown) => string } {
  const values: unknown[] = [companyId, page.pageSize, page.offset];
  return {
    values,
    param: (value: unknown) => {
      values.push(value);
      return `$${values.length}`;
    },
  };
}
