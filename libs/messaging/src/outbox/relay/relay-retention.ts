import type pg from 'pg';

const CLEANUP_BATCH = 5_000;

/** Deletes published rows older than `retentionMs`, a batch at a time, until none is left or `signal` aborts. */
export async function deleteExpiredRows(pool: pg.Pool, retentionMs: number, signal: AbortSignal): Promise<void> {
  for (;;) {
    const result = await pool.query(
      `DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox WHERE published_at < now() - make_interval(secs => $1::float8 / 1000) LIMIT $2)`,
      [retentionMs, CLEANUP_BATCH],
    );
    if ((result.rowCount ?? 0) < CLEANUP_BATCH || signal.aborted) return;
  }
}
