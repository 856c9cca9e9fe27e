import { parseCustomerListQuery } from './customer-list.query';
import { isBucketedListQuery, LIST_BUCKET_BITS } from './customers.queries';
import { readCustomerPage, type RunSql } from './read-customer-page';

const record = (id: number) => `{"internalId":${id}}`;

/** A stand-in for the database: records each statement and answers from `answer`. */
function fakeRun(answer: (text: string) => unknown[]): { run: RunSql; statements: string[] } {
  const statements: string[] = [];
  const run = async <Row>(text: string) => {
    statements.push(text);
    return answer(text) as Row[];
  };
  return { run, statements };
}

describe('readCustomerPage', () => {
  it('reads a company or company-and-status page in one statement, through the bucket counts', async () => {
    const { run, statements } = fakeRun(() => [
      { total: 250, json: record(1) },
      { total: 250, json: record(2) },
    ]);
    const query = parseCustomerListQuery({ status: 'Active', pageSize: '2', pageNumber: '3' }, 1000);
    expect(isBucketedListQuery(query)).toBe(true);
    const body = await readCustomerPage(run, '1000001', query);
    expect(JSON.parse(body)).toEqual([
      { internalId: 1, metadata: { totalCount: 250, maxPageSize: 1000 } },
      { internalId: 2, metadata: { totalCount: 250, maxPageSize: 1000 } },
    ]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('customer_list_buckets');
    expect(statements[0]).toContain(`<< ${LIST_BUCKET_BITS}`);
  });

  it('answers [] for a page past the end', async () => {
    const { run } = fakeRun(() => []);
    expect(await readCustomerPage(run, '1000001', parseCustomerListQuery({ pageNumber: '99' }, 1000))).toBe('[]');
  });

  it('counts exactly with count(*) when another filter is given, and builds JSON only for the page', async () => {
    const { run, statements } = fakeRun((text) => (text.includes('count(*)') ? [{ total: 1 }] : [{ json: record(7) }]));
    const query = parseCustomerListQuery({ status: 'Active', name: 'bygg' }, 1000);
    expect(isBucketedListQuery(query)).toBe(false);
    const body = await readCustomerPage(run, '1000001', query);
    expect(JSON.parse(body)).toEqual([{ internalId: 7, metadata: { totalCount: 1, maxPageSize: 1000 } }]);
    expect(statements).toHaveLength(2);
    const page = statements.find((s) => !s.includes('count(*)'));
    // ids first (LIMIT/OFFSET over an index), JSON after the join: skipped rows never become JSON.
    expect(page).toMatch(/FROM \(SELECT c\.internal_id FROM customers c WHERE[\s\S]*OFFSET[\s\S]*\) page\s+JOIN customers c/);
  });
});
