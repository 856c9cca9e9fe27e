import { parseCustomerListQuery } from './customer-list.query';
import { customerTimeBucketedPageQuery, isTimeBucketedListQuery, TIME_BUCKET_BITS } from './customer-time-buckets.queries';

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
    // The cells, two boundary counts and the page: four reads of data, each with the company.
    expect(q.text.match(/company_id = \$1/g)).toHaveLength(4);
    expect(q.text).toContain('modified_bucket > customer_time_bucket($5::timestamptz) AND created_bucket < customer_time_bucket($6::timestamptz)');
    expect(q.text).toContain(`<< ${TIME_BUCKET_BITS}`);
    // The second boundary excludes the first one's rows.
    expect(q.text).toMatch(/c\.created_at >= to_timestamp[\s\S]*AND NOT \(c\.last_modified_at >= to_timestamp/);
  });
});
