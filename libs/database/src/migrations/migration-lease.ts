import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { sleep } from '../background/backoff';
import { withAdminClient } from '../admin/database-admin';
import { queryRows } from '../sql/query-rows';

/** The one-row table that says which runner migrates this database, and until when. */
export const MIGRATION_LEASE_TABLE = 'migrations_lease';
const LEASE_SECONDS = 60;
const RENEW_EVERY_MS = 10_000;
const RETRY_EVERY_MS = 500;

/**
 * Lets one migration runner at a time work on a database (a deploy Job racing a developer,
 * parallel test workers, several replicas' init containers), so each migration is applied once.
 *
 * A lease row with an expiry rather than an advisory lock: a session lock stays behind on whatever
 * server session a transaction-mode pooler ran it on, and a transaction's lock would have to stay
 * open for the whole run, which `CREATE INDEX CONCURRENTLY` in a later migration waits for forever.
 * Each statement here stands alone, so it works through any pooler. The holder renews the lease
 * every 10 s; a runner that dies leaves it to expire within 60 s. Advisory-lock-free and per
 * database, so services never wait for each other.
 */
export async function withMigrationLease<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const holder = randomUUID();
  await ensureLeaseTable(dataSource);
  while (!(await take(dataSource, holder))) await sleep(RETRY_EVERY_MS);
  let renewal = Promise.resolve();
  const timer = setInterval(() => {
    renewal = take(dataSource, holder).then(
      () => undefined,
      () => undefined,
    );
  }, RENEW_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewal;
    await dataSource
      .query(`UPDATE ${MIGRATION_LEASE_TABLE} SET holder = NULL, expires_at = '-infinity' WHERE holder = $1`, [holder])
      .catch(() => undefined);
  }
}

/**
 * Frees the lease of `databaseUrl`'s database whoever holds it, for a caller that knows no runner
 * can be alive: `npm start` on its own cluster, holding its data directory, after a start that was
 * interrupted during a migration (the lease would otherwise hold the next start for up to 60 s).
 * Never for a shared server: a live runner's lease is its only guard.
 */
export async function releaseMigrationLease(databaseUrl: string): Promise<void> {
  await withAdminClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ exists: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MIGRATION_LEASE_TABLE]);
    if (rows[0]?.exists) await client.query(`UPDATE ${MIGRATION_LEASE_TABLE} SET holder = NULL, expires_at = '-infinity'`);
  });
}

/** Takes the lease if it is free or expired, or renews it if `holder` has it. */
async function take(dataSource: DataSource, holder: string): Promise<boolean> {
  const rows = await queryRows(
    dataSource,
    `UPDATE ${MIGRATION_LEASE_TABLE} SET holder = $1, expires_at = now() + make_interval(secs => $2)
      WHERE holder = $1 OR holder IS NULL OR expires_at < now() RETURNING 1`,
    [holder, LEASE_SECONDS],
  );
  return rows.length > 0;
}

async function ensureLeaseTable(dataSource: DataSource): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dataSource.query(
        `CREATE TABLE IF NOT EXISTS ${MIGRATION_LEASE_TABLE} (
           id int PRIMARY KEY CHECK (id = 1), holder text, expires_at timestamptz NOT NULL)`,
      );
      await dataSource.query(`INSERT INTO ${MIGRATION_LEASE_TABLE} (id, expires_at) VALUES (1, '-infinity') ON CONFLICT (id) DO NOTHING`);
      return;
    } catch (error) {
      // Two runners creating the table at once: one of them meets the other's catalogue row
      // (23505 on pg_type's unique index), its row type (42710, "type ... already exists") or the
      // table itself (42P07), whichever it reaches first.
      const code = (error as { code?: string }).code;
      if (!['23505', '42710', '42P07'].includes(code ?? '') || attempt >= 3) throw error;
    }
  }
}
