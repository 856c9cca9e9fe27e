import { preparedStatementName } from '@erp/database';
import { parseCustomerListQuery } from './customer-list.query';
import { customerNameCountedPageQuery } from './customer-name-counts.queries';
import { customerTimeBucketedPageQuery, isTimeBucketedListQuery } from './customer-time-buckets.queries';
import { customerBucketedPageQuery } from './customers.queries';

const parse = (query: Record<string, string>) => parseCustomerListQuery(query, 1000);

describe('isTimeBucketedListQuery', () => {
  it.each(['>', '>=', '<', '<='])('takes timestamp ranges (%s), alone, together and with status', (operator) => {
    expect(isTimeBucketedListQuery(parse({ lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: operator }))).toBe(true);
    expect(isTimeBucketedListQuery(parse({ createdDateTime: '2026-01-01', createdDateTimeCondition: operator, status: 'Active' }))).toBe(true);
    expect(isTimeBucketedListQuery(parse({ lastModifiedDateTime: '2026-01-01', createdDateTime: '2025-01-01', createdDateTimeCondition: operator }))).toBe(true);
  });

  it('leaves = and the filters the cells do not hold to the exact count', () => {
    expect(isTimeBucketedListQuery(parse({ lastModifiedDateTime: '2026-01-01', lastModifiedDateTimeCondition: '=' }))).toBe(false);
    expect(isTimeBucketedListQuery(parse({ lastModifiedDateTime: '2026-01-01', createdDateTimeCondition: '=', createdDateTime: '2026-01-01' }))).toBe(false);
    expect(isTimeBucketedListQuery(parse({ lastModifiedDateTime: '2026-01-01', name: 'acme' }))).toBe(false);
    expect(isTimeBucketedListQuery(parse({ createdDateTime: '2026-01-01', corporateId: '1' }))).toBe(false);
    expect(isTimeBucketedListQuery(parse({ createdDateTime: '2026-01-01', vatRegistrationId: '1' }))).toBe(false);
    expect(isTimeBucketedListQuery(parse({ status: 'Active' }))).toBe(false);
  });
});

describe('customerTimeBucketedPageQuery', () => {
  it('scopes every part by company, passes values as parameters and counts each boundary row once', () => {
    const q = customerTimeBucketedPageQuery(
      '1000001',
      parse({ status: 'Active', lastModifiedDateTime: '2026-01-01', createdDateTime: '2025-01-01', createdDateTimeCondition: '<', pageNumber: '3', pageSize: '10' }),
    );
    expect(q.values).toEqual(['1000001', 10, 20, 'Active', '2026-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']);
    expect(q.text).not.toContain('2026-01-01');
    // The cells, two boundary counts and the page (read forward, or from its bucket's end): five reads of data, each with the company.
    expect(q.text.match(/company_id = \$1/g)).toHaveLength(5);
    expect(q.text).toContain('modified_bucket > customer_time_bucket($5::timestamptz) AND created_bucket < customer_time_bucket($6::timestamptz)');
    // A boundary bucket runs from its start to the next bucket's, both the schema's (no width written here).
    expect(q.text).toContain(
      'c.last_modified_at >= customer_time_bucket_start(customer_time_bucket($5::timestamptz)) AND c.last_modified_at < customer_time_bucket_start(customer_time_bucket($5::timestamptz) + 1)',
    );
    expect(q.text).toContain('SELECT customer_list_id_bucket(c.internal_id), count(*) FROM customers c');
    expect(q.text).not.toMatch(/\s(<<|>>)\s/);
    // The second boundary excludes the first one's rows.
    expect(q.text).toMatch(/c\.created_at >= customer_time_bucket_start[\s\S]*AND NOT \(c\.last_modified_at >= customer_time_bucket_start/);
  });
});

describe('customerTimeBucketedPageQuery with one range', () => {
  it('holds both ways to count the range, each guarded by the same choice of the side with fewer time buckets', () => {
    const q = customerTimeBucketedPageQuery('1000001', parse({ status: 'Active', lastModifiedDateTime: '2020-01-01', lastModifiedDateTimeCondition: '>=' }));
    // The choice: the cells before and after the boundary bucket, each counted up to a cap.
    expect(q.text).toMatch(
      /WITH side AS MATERIALIZED \(SELECT \(SELECT count\(\*\) FROM \(SELECT FROM customer_time_buckets WHERE company_id = \$1 AND modified_bucket <= customer_time_bucket\(\$5::timestamptz\) LIMIT 2000\) side\) < \(SELECT count\(\*\) FROM \(SELECT FROM customer_time_buckets WHERE company_id = \$1 AND modified_bucket > customer_time_bucket\(\$5::timestamptz\) LIMIT 2000\) side\) AS outside\)/,
    );
    // Inside: the cells after the boundary bucket, unless the other side was chosen.
    expect(q.text).toMatch(/AND modified_bucket > customer_time_bucket\(\$5::timestamptz\) AND NOT \(SELECT outside FROM side\)/);
    // Outside: the id bucket's total minus the cells up to and including the boundary bucket.
    expect(q.text).toMatch(/FROM customer_list_buckets\s+WHERE company_id = \$1 AND status = \$4 AND \(SELECT outside FROM side\)/);
    expect(q.text).toMatch(/-sum\(row_count\) FROM customer_time_buckets\s+WHERE company_id = \$1 AND status = \$4 AND modified_bucket <= customer_time_bucket\(\$5::timestamptz\) AND \(SELECT outside FROM side\)/);
  });

  it('for a downward range subtracts the cells from the boundary bucket on', () => {
    const q = customerTimeBucketedPageQuery('1000001', parse({ createdDateTime: '2020-01-01', createdDateTimeCondition: '<' }));
    expect(q.text).toContain('created_bucket < customer_time_bucket($4::timestamptz)');
    expect(q.text).toContain('created_bucket >= customer_time_bucket($4::timestamptz)');
  });
});

describe('which page statements run prepared', () => {
  const name = (text: string) => preparedStatementName(text);

  it('prepares the equality lists (company, status), whose generic plan is the custom one', () => {
    expect(name(customerBucketedPageQuery('1000001', parse({ status: 'Active', pageNumber: '3' })).text)).toMatch(/^erp_/);
    expect(name(customerBucketedPageQuery('1000001', parse({})).text)).toMatch(/^erp_/);
    expect(name(customerNameCountedPageQuery('1000001', parse({ name: 'bygg', status: 'Active' })).text)).toMatch(/^erp_/);
  });

  it('leaves a time range unprepared: a generic plan does not know how wide it is', () => {
    const ranged = parse({ lastModifiedDateTime: '2026-01-01', createdDateTime: '2025-01-01', createdDateTimeCondition: '<' });
    expect(name(customerTimeBucketedPageQuery('1000001', ranged).text)).toBeUndefined();
    expect(name(customerNameCountedPageQuery('1000001', parse({ name: 'bygg', lastModifiedDateTime: '2026-01-01' })).text)).toBeUndefined();
  });
});
