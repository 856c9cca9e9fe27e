import { parseCustomerV3ListQuery, readCustomerV3Page } from './customers-v3.queries';
import type { RunSql } from './read-customer-page';

describe('parseCustomerV3ListQuery', () => {
  it('reads filter, 0-based pageIndex and pageSize (default 100, cut to the maximum) into the v1 list query', () => {
    expect(parseCustomerV3ListQuery({}, 1000)).toEqual({ page: { pageNumber: 1, pageSize: 100, offset: 0, maxPageSize: 1000 }, text: undefined });
    expect(parseCustomerV3ListQuery({ filter: ' Acme ', pageIndex: '2', pageSize: '5000' }, 1000)).toEqual({
      page: { pageNumber: 3, pageSize: 1000, offset: 2000, maxPageSize: 1000 },
      text: 'Acme',
    });
  });

  it('lists every problem in one error: paging, repeated filter, unknown parameters', () => {
    try {
      parseCustomerV3ListQuery({ pageIndex: '-1', pageSize: '0', filter: ['a', 'b'], name: 'x' }, 1000);
      throw new Error('no error');
    } catch (error) {
      expect((error as { fieldProblems: Array<{ field: string }> }).fieldProblems.map((p) => p.field).sort()).toEqual(['filter', 'name', 'pageIndex', 'pageSize']);
    }
  });
});

describe('readCustomerV3Page', () => {
  it('still reports the total on a page past the end of the bucketed list', async () => {
    const run = (async (text: string) => (text.includes('count(*)') ? [{ total: 7 }] : [])) as RunSql;
    expect(await readCustomerV3Page(run, '1000001', parseCustomerV3ListQuery({ pageIndex: '9' }, 1000))).toEqual({ items: [], totalCount: 7 });
  });
});
