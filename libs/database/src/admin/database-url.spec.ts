import { databaseNameOf, databaseUrlFor, redactUrl } from './database-url';

describe('databaseUrlFor', () => {
  it('replaces the database name and keeps credentials, host, port and query', () => {
    expect(
      databaseUrlFor('postgres://app:s3cret@db.internal:6543/postgres?sslmode=require', 'customers'),
    ).toBe('postgres://app:s3cret@db.internal:6543/customers?sslmode=require');
  });

  it('adds a database name to a URL that has none', () => {
    expect(databaseUrlFor('postgres://postgres@127.0.0.1:5432', 'orders')).toBe(
      'postgres://postgres@127.0.0.1:5432/orders',
    );
  });

  it('accepts the postgresql:// scheme', () => {
    expect(databaseUrlFor('postgresql://h/a', 'b')).toBe('postgresql://h/b');
  });

  it('percent-encodes names that need it, and they decode back', () => {
    const url = databaseUrlFor('postgres://h/a', 'odd name/ü');
    expect(databaseNameOf(url)).toBe('odd name/ü');
  });

  it('rejects names PostgreSQL would silently truncate', () => {
    expect(() => databaseUrlFor('postgres://h/a', 'x'.repeat(64))).toThrow(/longer than 63 bytes/);
  });

  it('rejects non-postgres URLs without echoing the password', () => {
    expect(() => databaseUrlFor('mysql://u:hunter2@h/a', 'b')).toThrow(/postgres:\/\//);
    expect(() => databaseUrlFor('not a url :hunter2', 'b')).toThrow(/^(?!.*hunter2)/);
  });
});

describe('databaseNameOf', () => {
  it('is undefined when the URL names no database', () => {
    expect(databaseNameOf('postgres://h:5432')).toBeUndefined();
    expect(databaseNameOf('postgres://h:5432/')).toBeUndefined();
  });
});

describe('redactUrl', () => {
  it('hides the password', () => {
    expect(redactUrl('postgres://u:secret@h/db')).toBe('postgres://u:***@h/db');
  });
});
