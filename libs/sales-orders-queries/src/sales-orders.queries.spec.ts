import { parseSalesOrderListQuery } from './sales-order-list.query';
import { FILTER_MATCHES_COLLECTED, orderCountQuery, orderPageQuery } from './sales-orders.queries';

const parse = (query: Record<string, string>, type?: 'SO') => parseSalesOrderListQuery(query, type);

describe('the list statements of customerId and filter', () => {
  it('counts a filter alone or with type and status on the narrow search texts, with customerId or modifiedSince on the orders', () => {
    const narrow = orderCountQuery('c1', parse({ filter: 'By_gg', status: 'Open' }, 'SO'));
    expect(narrow.text).toContain('FROM sales_order_search_texts s WHERE s.company_id = $1 AND s.order_type = $2 AND s.status = $3');
    expect(narrow.text).toContain(`s.search_text LIKE '%' || $4 || '%' ESCAPE '\\'`);
    expect(narrow.values).toEqual(['c1', 'SO', 'Open', 'by\\_gg']);
    expect(orderCountQuery('c1', parse({ filter: 'bygg', customerId: '10001' })).text).toContain('FROM sales_orders o');
    expect(orderCountQuery('c1', parse({ filter: 'bygg', modifiedSince: '2025-01-01T00:00:00Z' })).text).toContain('FROM sales_orders o');
    expect(orderCountQuery('c1', parse({ customerId: '10001' })).text).toContain('FROM sales_orders o');
  });

  it('reads every match of a filter with few matches before choosing the page, and walks the sort index for many', () => {
    const few = orderPageQuery('c1', parse({ filter: 'bygg' }), FILTER_MATCHES_COLLECTED);
    expect(few.text).toContain('OFFSET 0) AS o ORDER BY o.created_at ASC, o.internal_id ASC');
    const many = orderPageQuery('c1', parse({ filter: 'bygg' }), FILTER_MATCHES_COLLECTED + 1);
    expect(many.text).not.toContain('OFFSET 0)');
    // A customer's orders are few and covered by their index: never collected.
    expect(orderPageQuery('c1', parse({ customerId: '10001' }), 50).text).not.toContain('OFFSET 0)');
    // The mirror of a page past the middle collects too.
    const mirrored = orderPageQuery('c1', parse({ filter: 'bygg', pageIndex: '9', pageSize: '100' }), 1000);
    expect(mirrored.text).toContain('OFFSET 0) AS o ORDER BY o.created_at DESC, o.internal_id DESC');
    expect(mirrored.values.slice(-2)).toEqual([100, 0]);
  });
});
