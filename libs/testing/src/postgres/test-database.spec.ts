import { assertIsTestDatabase, testDatabaseName } from './test-database';

describe('testDatabaseName', () => {
  it('is test_<prefix>_<random>, different every time', () => {
    const first = testDatabaseName('orders');
    expect(first).toMatch(/^test_orders_[0-9a-f]{12}$/);
    expect(testDatabaseName('orders')).not.toBe(first);
  });

  it('turns any prefix into a safe lower-case identifier', () => {
    expect(testDatabaseName('Sales-Orders v3!')).toMatch(/^test_sales_orders_v3_[0-9a-f]{12}$/);
    expect(testDatabaseName('***')).toMatch(/^test_[0-9a-f]{12}$/);
  });

  it('stays within the 63 bytes PostgreSQL keeps of a name', () => {
    expect(Buffer.byteLength(testDatabaseName('x'.repeat(200)))).toBeLessThanOrEqual(63);
  });
});

describe('assertIsTestDatabase', () => {
  it('refuses a name without "test"', () => {
    expect(() => assertIsTestDatabase('sales_orders')).toThrow(/Refusing to use database "sales_orders"/);
  });

  it('accepts a name containing "test"', () => {
    expect(() => assertIsTestDatabase('test_orders_abc')).not.toThrow();
  });
});
