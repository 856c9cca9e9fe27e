import { parseCustomerListQuery } from './customer-list.query';
import { isBucketedListQuery } from './customers.queries';
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
    // The id buckets are the schema's (customer_list_id_bucket_start), not a width written here.
    expect(statements[0]).toContain('c.internal_id >= (SELECT customer_list_id_bucket_start(bucket) FROM start)');
    expect(statements[0]).toContain('c.internal_id < (SELECT customer_list_id_bucket_start(bucket + 1) FROM stop)');
    expect(statements[0]).not.toMatch(/\s(<<|>>)\s/);
  });

  it('answers [] for a page past the end', async () => {
    const { run } = fakeRun(() => []);
    expect(await readCustomerPage(run, '1000001', parseCustomerListQuery({ pageNumber: '99' }, 1000))).toBe('[]');
  });

  it('counts exactly with count(*) when another filter is given, and builds JSON only for the page', async () => {
    const { run, statements } = fakeRun((text) => (text.includes('count(*)') ? [{ total: 1 }] : [{ json: record(7) }]));
    const query = parseCustomerListQuery({ status: 'Active', corporateId: '556677-8899' }, 1000);
    expect(isBucketedListQuery(query)).toBe(false);
    const body = await readCustomerPage(run, '1000001', query);
    expect(JSON.parse(body)).toEqual([{ internalId: 7, metadata: { totalCount: 1, maxPageSize: 1000 } }]);
    expect(statements).toHaveLength(2);
    const page = statements.find((s) => !s.includes('count(*)'));
    // ids first (LIMIT/OFFSET over an index), JSON after the join: skipped rows never become JSON.
    expect(page).toMatch(/FROM \(SELECT c\.internal_id FROM customers c WHERE[\s\S]*OFFSET[\s\S]*\) page\s+JOIN customers c/);
  });

  it('reads a name through its kept counts in one statement when the company has them, and tells the observer', async () => {
    const { run, statements } = fakeRun(() => [{ total: 71090, json: record(3) }]);
    const seen: string[] = [];
    const names = { counted: (company: string, fragment: string) => seen.push(`counted ${company} ${fragment}`), notCounted: () => seen.push('not counted') };
    const body = await readCustomerPage(run, '1000001', parseCustomerListQuery({ name: 'ByGG', status: 'Active' }, 1000), names);
    expect(JSON.parse(body)).toEqual([{ internalId: 3, metadata: { totalCount: 71090, maxPageSize: 1000 } }]);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('customer_name_cells');
    expect(statements[0]).toContain('customer_name_id_bucket_start(bucket)');
    expect(statements[0]).not.toContain('customer_list_id_bucket');
    expect(statements[0]).not.toMatch(/\s(<<|>>)\s/);
    expect(seen).toEqual(['counted 1000001 bygg']);
  });

  it('counts a name from the rows when its counts answer nothing (none kept, or past the end), and tells the observer the matches', async () => {
    const { run, statements } = fakeRun((text) => (text.includes('customer_name_cells') ? [] : text.includes('count(*)') ? [{ total: 12 }] : [{ json: record(9) }]));
    const seen: Array<[string, string, number]> = [];
    const names = { counted: () => undefined, notCounted: (company: string, fragment: string, matches: number) => seen.push([company, fragment, matches]) };
    const body = await readCustomerPage(run, '1000001', parseCustomerListQuery({ name: 'Nordbygg' }, 1000), names);
    expect(JSON.parse(body)).toEqual([{ internalId: 9, metadata: { totalCount: 12, maxPageSize: 1000 } }]);
    expect(statements).toHaveLength(3);
    expect(seen).toEqual([['1000001', 'nordbygg', 12]]);
  });
});
