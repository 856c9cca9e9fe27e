import { ValidationFailedError } from '@erp/errors';
import { parseOrderBy, parseSalesOrderListQuery } from './sales-order-list.query';

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return (err as ValidationFailedError).fieldProblems[0].field;
  }
  throw new Error('expected a 400');
}

describe('order list query', () => {
  it('defaults: created asc, pageSize 100, pageIndex 0, nothing expanded', () => {
    const query = parseSalesOrderListQuery({}, undefined);
    expect(query).toMatchObject({ orderBy: { field: 'created', direction: 'asc' }, page: { pageSize: 100, pageIndex: 0 } });
    expect(query.expand.size).toBe(0);
  });

  it.each([
    ['created', 'created', 'asc'],
    ['lastModified desc', 'lastModified', 'desc'],
    ['ORDERID ASC', 'orderId', 'asc'],
    ['  orderId   desc ', 'orderId', 'desc'],
  ])('reads orderBy %j', (value, field, direction) => {
    expect(parseOrderBy(value)).toEqual({ field, direction });
  });

  it('caps pageSize at 100 when expanding and reads filters', () => {
    const query = parseSalesOrderListQuery(
      { expand: 'lines', pageSize: '500', status: 'backorder', modifiedSince: '2026-04-21T12:00:00+02:00', filter: 'Acme', customerId: '10001' },
      'SO',
    );
    expect(query).toMatchObject({ type: 'SO', status: 'BackOrder', modifiedSince: '2026-04-21T10:00:00.000Z', filter: 'Acme', customerId: '10001' });
    expect(query.page.pageSize).toBe(100);
  });

  it.each([
    [{ orderBy: 'name' }, 'orderBy'],
    [{ status: 'Sleeping' }, 'status'],
    [{ modifiedSince: 'now' }, 'modifiedSince'],
    [{ filter: 'x'.repeat(101) }, 'filter'],
    [{ filter: 'a\u0001b' }, 'filter'],
    [{ customerId: ['1', '2'] }, 'customerId'],
    [{ expand: 'lines,bogus' }, 'expand'],
    [{ pageIndex: '-1' }, 'pageIndex'],
    [{ pagesize: '10' }, 'pagesize'],
  ])('refuses %j naming %s', (query, field) => {
    expect(fieldOf(() => parseSalesOrderListQuery(query, undefined))).toBe(field);
  });
});
