import { Client } from 'pg';

import { createTestDatabase } from './test-database';

async function currentDatabase(url: string): Promise<string> {
  const client = new Client(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    return rows[0]!.db;
  } finally {
    await client.end();
  }
}

describe('createTestDatabase', () => {
  it('creates an empty database named test_<prefix>_<random> that the URL connects to', async () => {
    const database = await createTestDatabase('harness');
    try {
      expect(database.name).toMatch(/^test_harness_[0-9a-f]{12}$/);
      expect(await currentDatabase(database.url)).toBe(database.name);
    } finally {
      await database.drop();
    }
  });

  it('gives concurrent callers separate databases', async () => {
    const databases = await Promise.all([createTestDatabase('a'), createTestDatabase('a')]);
    try {
      expect(databases[0].name).not.toBe(databases[1].name);
    } finally {
      await Promise.all(databases.map((database) => database.drop()));
    }
  });

  it('drops the database, and a second drop is harmless', async () => {
    const database = await createTestDatabase('dropped');
    await database.drop();
    await database.drop();

    await expect(currentDatabase(database.url)).rejects.toThrow(/does not exist/);
  });

  it('runs against the server the global setup provides', () => {
    const expected = process.env['DATABASE_URL'];
    if (expected) expect(process.env['TEST_DATABASE_SERVER_URL']).toBe(expected);
    else
      expect(process.env['TEST_DATABASE_SERVER_URL']).toMatch(
        /^postgres:\/\/postgres:postgres@127\.0\.0\.1:\d+\/postgres$/,
      );
  });
});
