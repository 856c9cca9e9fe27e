import { createDataSource, prepared } from '@erp/database';
import { findPgBouncer, PGBOUNCER_MISSING, type PgBouncer, startPgBouncer } from './pgbouncer';
import { createTestDatabase, type TestDatabase, testDatabaseServerUrl } from './test-database';

const pgbouncer = findPgBouncer();
if (!pgbouncer) process.stderr.write(`\n${PGBOUNCER_MISSING}\n\n`);

/**
 * Prepared statements left on (DATABASE_PREPARED_STATEMENTS' default) behind a real PgBouncer in
 * transaction mode, with fewer server sessions than client connections: a PgBouncer 1.21+ keeps
 * them; an older one hands the next transaction to a session that lacks the statement (26000) or
 * already has one of that name from another client (42P05), and the client prepares again or
 * stops preparing, so that no answer fails either way (docs/platform-teams.md).
 */
(pgbouncer ? describe : describe.skip)('prepared statements behind PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let database: TestDatabase;

  beforeAll(async () => {
    bouncer = await startPgBouncer(testDatabaseServerUrl(), { poolMode: 'transaction', defaultPoolSize: 2 });
    database = await createTestDatabase('pgbouncer_prepared');
  }, 30_000);

  afterAll(async () => {
    await bouncer?.stop();
    await database?.drop();
  });

  it('answers every marked statement right, from six client connections over two server sessions', async () => {
    const source = createDataSource({ url: bouncer.url(database.url), entities: [], migrations: [], applicationName: 'pgbouncer-prepared', poolSize: 6 });
    await source.initialize();
    const double = prepared(`SELECT $1::int * 2 AS n, current_setting('statement_timeout') AS timeout`);
    const square = prepared(`SELECT $1::int * $1::int AS n`);
    try {
      const wrong: string[] = [];
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(
          Array.from({ length: 60 }, async (_, i) => {
            const [row] = await source.query<Array<{ n: number; timeout?: string }>>(i % 2 ? square : double, [i]);
            return { i, row };
          }),
        );
        for (const { i, row } of answers) {
          const expected = i % 2 ? { n: i * i } : { n: i * 2, timeout: '30s' };
          if (JSON.stringify(row) !== JSON.stringify(expected)) wrong.push(`${round}/${i}: ${JSON.stringify(row)}`);
        }
      }
      expect(wrong).toEqual([]);
    } finally {
      await source.destroy();
    }
  }, 60_000);
});
