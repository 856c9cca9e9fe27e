import type { ValidationFailedError } from '@erp/errors';
import { INVENTORY_PAGE_SIZE, parseInventoryListQuery } from './inventory-list.query';

function problemFields(query: Record<string, string | string[]>): string[] {
  try {
    parseInventoryListQuery(query);
  } catch (error) {
    return (error as ValidationFailedError).fieldProblems.map((p) => p.field).sort();
  }
  throw new Error('no error');
}

describe('parseInventoryListQuery', () => {
  it('has the documented defaults: every item, nothing expanded, pageSize 10 000 from page 0', () => {
    expect(parseInventoryListQuery({})).toEqual({
      inventoryIds: undefined,
      warehouseIds: undefined,
      locationIds: undefined,
      attributes: undefined,
      modifiedSince: undefined,
      expand: new Set(),
      page: { pageIndex: 0, pageSize: INVENTORY_PAGE_SIZE, offset: 0, maxPageSize: INVENTORY_PAGE_SIZE },
    });
  });

  it('matches parameter names in any case and joins their values (the document sample sends InventoryId=)', () => {
    expect(parseInventoryListQuery({ inventoryId: 'Item1', InventoryId: 'Item2', WAREHOUSEID: 'MAIN' })).toMatchObject({
      inventoryIds: ['Item1', 'Item2'],
      warehouseIds: ['MAIN'],
    });
  });

  it('groups attributeFilter by attribute id; a value may be empty or hold a colon', () => {
    expect(parseInventoryListQuery({ attributeFilter: ['WEBSHOP:1', 'WEBSHOP:0', 'NOTE:a:b', 'EMPTY:'] }).attributes).toEqual({
      WEBSHOP: ['1', '0'],
      NOTE: ['a:b'],
      EMPTY: [''],
    });
  });

  it('reads expand comma-separated and repeated, any case, All and None', () => {
    expect(parseInventoryListQuery({ expand: 'location,ATTRIBUTE' }).expand).toEqual(new Set(['Location', 'Attribute']));
    expect(parseInventoryListQuery({ expand: ['all', 'none'] }).expand).toEqual(new Set(['Location', 'Attribute']));
    expect(parseInventoryListQuery({ expand: 'None' }).expand).toEqual(new Set());
  });

  it('reads modifiedSince as UTC unless it has an offset', () => {
    expect(parseInventoryListQuery({ modifiedSince: '2021-08-01T12:00:00' }).modifiedSince).toBe('2021-08-01T12:00:00.000Z');
    expect(parseInventoryListQuery({ modifiedSince: '2021-08-01T12:00:00+02:00' }).modifiedSince).toBe('2021-08-01T10:00:00.000Z');
  });

  it('refuses a modifiedSince with anything after the timestamp, or beyond year 9999 once its offset applies', () => {
    expect(problemFields({ modifiedSince: `2021-08-01T12:00:00Z${' '.repeat(30)}junk` })).toEqual(['modifiedSince']);
    expect(problemFields({ modifiedSince: '9999-12-31T23:00:00-14:00' })).toEqual(['modifiedSince']);
  });

  it('lists every problem at once', () => {
    expect(
      problemFields({ expand: 'bins', modifiedSince: ['2021-01-01', '2021-01-02'], attributeFilter: ['ok:1', 'nocolon'], pageSize: '0', pageIndex: '-1', warehouseId: '', shelf: 'x' }),
    ).toEqual(['attributeFilter[1]', 'expand', 'modifiedSince', 'pageIndex', 'pageSize', 'shelf', 'warehouseId[0]']);
    expect(problemFields({ inventoryId: Array.from({ length: 1001 }, (_, i) => `I${i}`) })).toEqual(['inventoryId']);
  });
});
