import pg, { type ClientBase, type ClientConfig } from 'pg';
import { DEFAULT_STATEMENT_TIMEOUT_MS, IDLE_IN_TRANSACTION_TIMEOUT_MS, runAsService, type TransactionSettings, transactionScopedClient } from '@erp/database';

/**
 * One relay per database publishes at a time: each round runs in a transaction that first takes
 * this transaction-level advisory lock (or stands by when another replica holds it), and reads,
 * publishes and marks its batch before it commits. Per-aggregate order needs a single publisher
 * (two relays reading the same pending rows would interleave them); the next round, whichever
 * replica runs it, reads after the last one committed. A transaction's lock works behind a
 * transaction-mode pooler (a session lock would stay on a server session others then use), needs
 * no extra infrastructure, ends with the holder (crash, network), and, like all advisory locks,
 * is scoped to the database, so services never contend. The number is arbitrary but fixed.
 */
export const OUTBOX_RELAY_LOCK_KEY = 7_301_954_217;

/**
 * The relay's one connection: a round is one transaction, and rounds never overlap. Its
 * transactions carry the services' timeouts and, given the service's `roles`, run as its service
 * role (transactionScopedClient).
 */
export function relayPool(database: string | ClientConfig, roles: Pick<TransactionSettings, 'tenantRole' | 'serviceRole'> = {}): pg.Pool {
  const settings = typeof database === 'string' ? { connectionString: database } : database;
  const pool = new pg.Pool({
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    ...settings,
    max: 1,
    Client: transactionScopedClient({
      statementTimeoutMs: DEFAULT_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: IDLE_IN_TRANSACTION_TIMEOUT_MS,
      ...roles,
    }),
  });
  // A connection the server ends while idle in the pool is replaced at the next round.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Runs `work` in one transaction holding the relay lock, as the service (across companies);
 * undefined, without running it, when another replica holds the lock (`held` hears which). A
 * failure inside `work` that it wants kept (the attempt counts of a failed send) is committed
 * before it is rethrown.
 */
export function underRelayLock<T>(pool: pg.Pool, held: (locked: boolean) => void, work: (client: ClientBase) => Promise<T>): Promise<T | undefined> {
  return runAsService(async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [OUTBOX_RELAY_LOCK_KEY]);
      if (rows[0]?.locked !== true) {
        await client.query('ROLLBACK');
        held(false);
        return undefined;
      }
      held(true);
      try {
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('COMMIT');
        throw error;
      }
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.release(broken);
    }
  });
}
