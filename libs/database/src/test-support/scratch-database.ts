import { randomBytes } from 'node:crypto';

import { dropDatabase, ensureDatabase } from '../admin/database-admin';

/**
 * A throw-away database for this lib's own integration tests. (Other projects use
 * `createTestDatabase` from `@erp/testing`, which builds on this lib and so cannot be used here.)
 */
export async function createScratchDatabase(
  prefix: string,
): Promise<{ serverUrl: string; url: string; name: string; drop(): Promise<void> }> {
  const serverUrl = testServerUrl();
  const name = `test_${prefix}_${randomBytes(5).toString('hex')}`;
  const url = await ensureDatabase(serverUrl, name);
  return { serverUrl, url, name, drop: () => dropDatabase(serverUrl, name) };
}

export function testServerUrl(): string {
  const url = process.env['TEST_DATABASE_SERVER_URL'];
  if (!url)
    throw new Error('TEST_DATABASE_SERVER_URL is not set: run the tests through the root Jest config');
  return url;
}
