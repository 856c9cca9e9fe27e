import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import { testServerUrl } from '../test-support/scratch-database';
import { dropDatabase, ensureDatabase } from './database-admin';
import { isMigratedFrom, markMigratedFrom } from './migrated-mark';

async function sql(url: string, text: string): Promise<void> {
  const client = new Client(url);
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** `npm start` leaves a service's migrate out when the note says these sources migrated it last. */
describe('isMigratedFrom / markMigratedFrom', () => {
  const serverUrl = testServerUrl();
  let name: string;
  let url: string;

  beforeEach(async () => {
    name = `test_mark_${randomBytes(5).toString('hex')}`;
    url = await ensureDatabase(serverUrl, name);
  });
  afterEach(() => dropDatabase(serverUrl, name));

  it('is false on a new database, even one with a migrations table', async () => {
    expect(await isMigratedFrom(url, 'abc123')).toBe(false);
    await sql(url, `CREATE TABLE migrations (id serial PRIMARY KEY, name text)`);
    expect(await isMigratedFrom(url, 'abc123')).toBe(false);
  });

  it('is true for the sources it was marked with, false for any other', async () => {
    await sql(url, `CREATE TABLE migrations (id serial PRIMARY KEY, name text); INSERT INTO migrations (name) VALUES ('A1'), ('B2')`);
    await markMigratedFrom(url, 'abc123');
    expect(await isMigratedFrom(url, 'abc123')).toBe(true);
    expect(await isMigratedFrom(url, 'abc12')).toBe(false);
    expect(await isMigratedFrom(url, 'def456')).toBe(false);
  });

  it('is false again once a migration was reverted or applied by something else since the mark', async () => {
    await sql(url, `CREATE TABLE migrations (id serial PRIMARY KEY, name text); INSERT INTO migrations (name) VALUES ('A1'), ('B2')`);
    await markMigratedFrom(url, 'abc123');
    await sql(url, `DELETE FROM migrations WHERE name = 'B2'`);
    expect(await isMigratedFrom(url, 'abc123')).toBe(false);
    await sql(url, `INSERT INTO migrations (name) VALUES ('C3')`);
    expect(await isMigratedFrom(url, 'abc123')).toBe(false);
    await sql(url, `DELETE FROM migrations WHERE name = 'C3'; INSERT INTO migrations (name) VALUES ('B2')`);
    expect(await isMigratedFrom(url, 'abc123')).toBe(true);
  });

  it('is false when the database was dropped and made again (a reset): the note goes with it', async () => {
    await sql(url, `CREATE TABLE migrations (id serial PRIMARY KEY, name text)`);
    await markMigratedFrom(url, 'abc123');
    await dropDatabase(serverUrl, name);
    url = await ensureDatabase(serverUrl, name);
    await sql(url, `CREATE TABLE migrations (id serial PRIMARY KEY, name text)`);
    expect(await isMigratedFrom(url, 'abc123')).toBe(false);
  });
});
