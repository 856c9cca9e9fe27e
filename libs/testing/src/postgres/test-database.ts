import { randomBytes } from 'node:crypto';

import { databaseNameOf, dropDatabase, ensureDatabase } from '@erp/database';

export interface TestDatabase {
  /** Connection URL of the new database (same server and credentials as the test server). */
  url: string;
  /** `test_<prefix>_<random>` */
  name: string;
  /** Drops the database, ending any open sessions. Safe to call more than once. */
  drop(): Promise<void>;
}

const MAX_NAME_BYTES = 63;
const RANDOM_SUFFIX_CHARS = 12;

/**
 * Creates an empty, uniquely named database `test_<prefix>_<random>` on the run's test server
 * (TEST_DATABASE_SERVER_URL, set by the Jest global setup). Refuses any name without "test", so
 * a test can never point at a real database.
 */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const serverUrl = testDatabaseServerUrl();
  const name = testDatabaseName(prefix);
  const url = await ensureDatabase(serverUrl, name);
  assertIsTestDatabase(databaseNameOf(url) ?? '');
  return { url, name, drop: () => dropDatabase(serverUrl, name) };
}

/** The admin URL of the server tests create their databases on. */
export function testDatabaseServerUrl(): string {
  const url = process.env['TEST_DATABASE_SERVER_URL'];
  if (!url) {
    throw new Error(
      'TEST_DATABASE_SERVER_URL is not set: run tests through the root Jest config, whose global ' +
        'setup (tools/test-fixtures/src/global-setup.ts) starts PostgreSQL.',
    );
  }
  return url;
}

export function testDatabaseName(prefix: string): string {
  const random = randomBytes(RANDOM_SUFFIX_CHARS / 2).toString('hex');
  const cleaned = prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME_BYTES - 'test__'.length - RANDOM_SUFFIX_CHARS);
  const name = cleaned ? `test_${cleaned}_${random}` : `test_${random}`;
  assertIsTestDatabase(name);
  return name;
}

/** The guard: tests only ever create, use or drop databases whose name contains "test". */
export function assertIsTestDatabase(name: string): void {
  if (!name.toLowerCase().includes('test')) {
    throw new Error(`Refusing to use database "${name}" in tests: its name does not contain "test"`);
  }
}
