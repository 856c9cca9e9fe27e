import type { ClientBase } from 'pg';

/**
 * Ends a read-only transaction a streamed list ran on a checked-out connection, and gives the
 * connection back once: whole when the `ROLLBACK` went through, to be discarded (`release(error)`)
 * when the connection broke. ReadOnlyCursor (read-only-cursor.ts) ends this way.
 */
export async function endReadTransaction(client: ClientBase, release: (error?: Error) => void): Promise<void> {
  try {
    await client.query('ROLLBACK');
    release();
  } catch (error) {
    release(error instanceof Error ? error : new Error(String(error)));
  }
}
