import { isCellListQuery, orderCellPageQuery, orderPageStartQuery } from './order-list-cells';
import { parseSalesOrderListQuery } from './sales-order-list.query';
import { SUMMARY_JSON } from './order-json';

const parse = (query: Record<string, string>, type?: 'SO') => parseSalesOrderListQuery(query, type);

describe('the order list over the list cells', () => {
  it('answers type, status and modifiedSince from the cells, customerId and filter from their indexes', () => {
    expect(isCellListQuery(parse({}))).toBe(true);
    expect(isCellListQuery(parse({ status: 'Open', modifiedSince: '2025-01-01T00:00:00Z', orderBy: 'orderId desc' }, 'SO'))).toBe(true);
    expect(isCellListQuery(parse({ customerId: '10001' }))).toBe(false);
    expect(isCellListQuery(parse({ filter: 'bygg', status: 'Open' }))).toBe(false);
  });

  it('reads the cells of the sort key, walking them in the requested direction, scoped by company', () => {
    const byId = orderPageStartQuery('c1', parse({ orderBy: 'orderId desc', status: 'Hold' }));
    expect(byId.text).toContain('FROM sales_order_id_cells WHERE company_id = $1 AND status = $4');
    expect(byId.text).toContain('ORDER BY bucket DESC');
    expect(byId.values).toEqual(['c1', 100, 0, 'Hold']);
    const since = orderPageStartQuery('c1', parse({ modifiedSince: '2025-01-01T00:00:00Z' }));
    expect(since.text).toContain('FROM sales_order_time_cells WHERE company_id = $1 AND modified_bucket > sales_order_time_bucket($4::timestamptz)');
    expect(since.text).toContain('FROM sales_orders o');
    expect(since.text).toContain('ORDER BY bucket ASC');
  });

  it('reads no rows for a page past the end', () => {
    const query = parse({ pageIndex: '9' });
    const page = orderCellPageQuery('c1', query, { total: 5, before: null, start: null, stop: null, after: null }, SUMMARY_JSON);
    expect(page.text).toContain('WHERE false');
  });

  it('seeks from the start bucket to the stop bucket, skipping only the rows of the buckets before the offset', () => {
    const query = parse({ orderBy: 'created desc', pageIndex: '3', pageSize: '10', status: 'Open' });
    const page = orderCellPageQuery('c1', query, { total: 500, before: 25, start: '900', stop: '899', after: null }, SUMMARY_JSON);
    // desc: the range runs from the stop bucket (the lower) up to the end of the start bucket.
    expect(page.values).toEqual(['c1', 'Open', '899', '900', 10, 5]);
    expect(page.text).toContain('o.created_at >= sales_order_time_bucket_start($3::int)');
    expect(page.text).toContain('o.created_at < sales_order_time_bucket_start($4::int + 1)');
    expect(page.text).toContain('ORDER BY o.created_at DESC, o.internal_id DESC');
  });
});
