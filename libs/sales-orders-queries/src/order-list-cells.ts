import { runningCountCtes } from '@erp/paging';
import type { SalesOrderListQuery } from './sales-order-list.query';
import { orderByClause, orderRowsPageSql, type SqlQuery } from './sales-orders.queries';

/**
 * How each orderBy is cut into buckets: the cells table that counts it, the cell's bucket column,
 * the bucket of a row, and the rows of a range of buckets as conditions on the sort key (which the
 * sort key's index answers as a range).
 */
interface SortBuckets {
  cells: string;
  cellBucket: string;
  rowBucket: string;
  /** The SQL type of a bucket, for parameters. */
  type: 'int' | 'text';
  /** Rows of bucket `b` and after. */
  from: (b: string) => string;
  /** Rows before bucket `b + 1`; `after` is the first bucket holding rows after `b` (null: none). */
  through: (b: string, after: string) => string;
}

/**
 * The first instant of a time bucket of the order list's cells: `sales_order_time_bucket()` cuts
 * them (migration 1766100000000), `sales_order_time_bucket_start()` (1766800000000) gives their
 * start, so their width (about 24 days) is the schema's, not written here.
 */
const timeBound = (bucket: string) => `sales_order_time_bucket_start(${bucket})`;

function timeBuckets(column: string, cellBucket: string): SortBuckets {
  return {
    cells: 'sales_order_time_cells',
    cellBucket,
    rowBucket: `sales_order_time_bucket(${column})`,
    type: 'int',
    from: (b) => `${column} >= ${timeBound(b)}`,
    through: (b) => `${column} < ${timeBound(`${b} + 1`)}`,
  };
}

/**
 * Order ids are cut by their first 3 characters: every id of a prefix sorts at or after the prefix
 * itself and before the next prefix, because ids are digits only (assigned by nextOrderId) and
 * collations compare digits one by one (not ICU's numeric `kn`; see the README).
 */
const ID_BUCKETS: SortBuckets = {
  cells: 'sales_order_id_cells',
  cellBucket: 'id_bucket',
  rowBucket: 'sales_order_id_bucket(o.order_id)',
  type: 'text',
  from: (b) => `o.order_id >= ${b}`,
  through: (_b, after) => `o.order_id < ${after}`,
};

const SORT_BUCKETS: Record<SalesOrderListQuery['orderBy']['field'], SortBuckets> = {
  created: timeBuckets('o.created_at', 'created_bucket'),
  lastModified: timeBuckets('o.last_modified_at', 'modified_bucket'),
  orderId: ID_BUCKETS,
};

/**
 * Whether the cells answer this request: every orderBy, filtered by nothing but `{type}`, `status`
 * and `modifiedSince`. `customerId` and `filter` select few orders and are counted from their
 * indexes (the page reader's count + OFFSET).
 */
export function isCellListQuery(query: SalesOrderListQuery): boolean {
  return query.customerId === undefined && query.filter === undefined;
}

/** Where a page starts: the exact total, and the buckets the page's rows lie in (none past the end). */
export interface OrderPageStart {
  total: number;
  /** Matching rows in the buckets before `start` (in the requested direction). */
  before: number | null;
  start: string | null;
  stop: string | null;
  /** The first bucket after the higher of `start` and `stop` (ascending), null when none. */
  after: string | null;
}

/** The filters the cells count, as conditions on a cell (`cell`) and on an order row (`row`), with their values. */
function cellFilters(query: SalesOrderListQuery, values: unknown[]): { cell: string; row: string; since?: string } {
  const param = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  let cell = '';
  let row = '';
  if (query.type !== undefined) {
    const p = param(query.type);
    cell += ` AND order_type = ${p}`;
    row += ` AND o.order_type = ${p}`;
  }
  if (query.status !== undefined) {
    const p = param(query.status);
    cell += ` AND status = ${p}`;
    row += ` AND o.status = ${p}`;
  }
  if (query.modifiedSince === undefined) return { cell, row };
  const since = `${param(query.modifiedSince)}::timestamptz`;
  return { cell, row: `${row} AND o.last_modified_at >= ${since}`, since };
}

/**
 * The statement that places a page (a cells request, see isCellListQuery): one row of
 * OrderPageStart. The count per sort bucket is the sum of the cells (of the company, type and
 * status) wholly inside `modifiedSince`'s range, plus the rows of its boundary time bucket counted
 * exactly from the covering modified index; the page starts in the bucket where the running count,
 * in the requested direction, passes the offset.
 */
export function orderPageStartQuery(companyId: string, query: SalesOrderListQuery): SqlQuery {
  const values: unknown[] = [companyId, query.page.pageSize, query.page.offset];
  const sort = SORT_BUCKETS[query.orderBy.field];
  const filters = cellFilters(query, values);
  let perBucket = `SELECT ${sort.cellBucket}, sum(row_count) FROM ${sort.cells} WHERE company_id = $1${filters.cell}`;
  if (filters.since !== undefined) {
    const sinceBucket = `sales_order_time_bucket(${filters.since})`;
    perBucket += ` AND modified_bucket > ${sinceBucket} GROUP BY 1
      UNION ALL
      SELECT ${sort.rowBucket}, count(*) FROM sales_orders o
      WHERE o.company_id = $1${filters.row} AND o.last_modified_at < ${timeBound(`${sinceBucket} + 1`)} GROUP BY 1`;
  } else {
    perBucket += ' GROUP BY 1';
  }
  return { text: runningCountStartSql(perBucket, query.orderBy.direction), values };
}

/**
 * The total and the bucket range a page lies in, from `perBucket` (bucket, count) rows, walking the
 * buckets in `direction` (`runningCountCtes` of `@erp/paging`), as one row of OrderPageStart.
 */
export function runningCountStartSql(perBucket: string, direction: 'asc' | 'desc'): string {
  return `WITH ${runningCountCtes(perBucket, direction)}
          SELECT (SELECT coalesce(sum(n), 0) FROM merged)::int AS total, start.before::int AS before,
                 start.bucket::text AS start, stop.bucket::text AS stop,
                 (SELECT min(bucket) FROM merged WHERE bucket > greatest(start.bucket, stop.bucket))::text AS after
          FROM (SELECT 1) AS one LEFT JOIN start ON true LEFT JOIN stop ON start.bucket IS NOT NULL`;
}

/**
 * The page itself, placed by `orderPageStartQuery`: an index-ordered scan of the sort key from the
 * start bucket's edge to the stop bucket's, applying the exact filters and skipping only the
 * matching rows of the buckets' part before the offset; JSON for the page's rows only.
 */
export function orderCellPageQuery(companyId: string, query: SalesOrderListQuery, start: OrderPageStart, json: string): SqlQuery {
  if (start.start === null || start.stop === null || start.before === null) return { text: 'SELECT NULL::text AS json WHERE false', values: [] };
  const values: unknown[] = [companyId];
  const sort = SORT_BUCKETS[query.orderBy.field];
  const filters = cellFilters(query, values);
  const param = (value: unknown, type: string) => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const [low, high] = query.orderBy.direction === 'desc' ? [start.stop, start.start] : [start.start, start.stop];
  let range = ` AND ${sort.from(param(low, sort.type))}`;
  if (sort.type === 'int') range += ` AND ${sort.through(param(high, 'int'), '')}`;
  else if (start.after !== null) range += ` AND ${sort.through('', param(start.after, 'text'))}`;
  const limit = param(query.page.pageSize, 'int');
  const offset = param(query.page.offset - start.before, 'int');
  return { text: orderRowsPageSql(`o.company_id = $1${filters.row}${range}`, orderByClause(query), limit, offset, json), values };
}
