import { finished } from 'node:stream/promises';
import { Client, Pool } from 'pg';
import { createScratchDatabase } from '../test-support/scratch-database';
import { transactionScopedPg } from '../tenancy/transaction-scoped-pg';
import { type CheckedOutConnection, openReadOnlyCursor } from './read-only-cursor';

type Release = { error?: Error };

describe('openReadOnlyCursor over real PostgreSQL', () => {
  let database: { url: string; drop(): Promise<void> };
  let pool: Pool;
  let admin: Client;

  beforeAll(async () => {
    database = await createScratchDatabase('cursor');
    // The services' pool: a cursor is refused outside a transaction.
    const pg = transactionScopedPg({ statementTimeoutMs: 10_000, idleInTransactionTimeoutMs: 10_000 });
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // The scratch database is dropped WITH (FORCE) after the suite: a connection a test's stream
    // hands back to the pool only after pool.end() is terminated then, and the pool reports it as
    // an 'error' event, which with no listener fails whichever test Jest runs at that moment (a
    // fresh-clone run of 2026-12-03). Every assertion of a release is made on `releases` instead.
    pool.on('error', () => undefined);
    admin = new Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await pool.end();
    await admin.end();
    await database.drop();
  });

  /** A connection of the pool whose releases are counted. */
  async function checkOut(): Promise<{ connection: CheckedOutConnection; releases: Release[] }> {
    const client = await pool.connect();
    const releases: Release[] = [];
    return {
      releases,
      connection: {
        client,
        release: (error?: Error) => {
          releases.push({ error });
          client.release(error);
        },
      },
    };
  }

  /** Sessions of the database (other than the admin's) still inside a transaction. */
  async function openTransactions(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`,
    );
    return rows[0].n;
  }

  const numbers = (count: number) => ({ text: 'SELECT n, $1::text AS tag FROM generate_series(1, $2::int) AS n', values: ['x', count] });

  it('runs the plan and the cursor in one read-only transaction, streams every row in batches, then rolls back and releases once', async () => {
    const { connection, releases } = await checkOut();
    const { cursor, plan } = await openReadOnlyCursor<{ n: number }, { statement: ReturnType<typeof numbers>; total: number; readOnly: string }>(
      connection,
      { repeatableRead: true, batchRows: 7 },
      async (run) => {
        const [{ total }] = await run<{ total: number }>('SELECT 1000 AS total', []);
        const [{ readOnly }] = await run<{ readOnly: string }>(`SELECT current_setting('transaction_read_only') AS "readOnly"`, []);
        return { statement: numbers(1000), total, readOnly };
      },
    );
    expect(plan).toMatchObject({ total: 1000, readOnly: 'on' });
    expect(await cursor.first()).toEqual({ n: 1, tag: 'x' });
    const chunks: string[] = [];
    const body = cursor.body(
      (async function* () {
        for await (const row of cursor.rows()) yield `${row.n},`;
      })(),
    );
    body.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    await finished(body);
    expect(chunks.join('').split(',').filter(Boolean)).toHaveLength(999);
    expect(releases).toEqual([{ error: undefined }]);
    expect(await openTransactions()).toBe(0);
  });

  it('closes on an empty result when asked, once however often', async () => {
    const { connection, releases } = await checkOut();
    const { cursor } = await openReadOnlyCursor<{ n: number }, { statement: ReturnType<typeof numbers> }>(connection, { batchRows: 10 }, async () => ({
      statement: numbers(0),
    }));
    expect(await cursor.first()).toBeUndefined();
    await Promise.all([cursor.close(), cursor.close()]);
    expect(releases).toEqual([{ error: undefined }]);
    expect(await openTransactions()).toBe(0);
  });

  it('ends the transaction and releases the connection when the plan fails, and the error reaches the caller', async () => {
    const { connection, releases } = await checkOut();
    await expect(
      openReadOnlyCursor(connection, { batchRows: 10 }, async (run) => {
        await run('SELECT 1 / 0', []);
        return { statement: numbers(1) };
      }),
    ).rejects.toThrow(/division by zero/);
    expect(releases).toEqual([{ error: undefined }]);
    expect(await openTransactions()).toBe(0);
  });

  it('releases once when the body is destroyed before its end (the client went away)', async () => {
    const { connection, releases } = await checkOut();
    const { cursor } = await openReadOnlyCursor<{ n: number }, { statement: ReturnType<typeof numbers> }>(connection, { batchRows: 5 }, async () => ({
      statement: numbers(100_000),
    }));
    const body = cursor.body(
      (async function* () {
        for await (const row of cursor.rows()) yield `${row.n},`;
      })(),
    );
    await new Promise<void>((resolve) => body.once('data', () => resolve()));
    body.destroy();
    await expect(finished(body)).rejects.toThrow();
    await cursor.close();
    expect(releases).toEqual([{ error: undefined }]);
    expect(await openTransactions()).toBe(0);
  });

  it('closes the cursor when its first row fails, and throws the error', async () => {
    const { connection, releases } = await checkOut();
    const { cursor } = await openReadOnlyCursor<{ n: number }, { statement: { text: string; values: unknown[] } }>(connection, { batchRows: 5 }, async () => ({
      statement: { text: 'SELECT 1 / (n - 1) AS n FROM generate_series(1, 3) AS n', values: [] },
    }));
    await expect(cursor.first()).rejects.toThrow(/division by zero/);
    expect(releases).toHaveLength(1);
    expect(await openTransactions()).toBe(0);
  });
});
