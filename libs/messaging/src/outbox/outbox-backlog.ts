import type pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '@erp/database';

export interface OutboxBacklog {
  /** Rows not yet published. */
  pending: number;
  /** Age of the oldest of them, in ms (null when none). */
  oldestPendingAgeMs: number | null;
}

interface BacklogRow {
  pending: string;
  oldest_ms: string | null;
}

const BACKLOG_SQL = `SELECT count(*)::text AS pending,
    (extract(epoch FROM now() - min(created_at)) * 1000)::bigint::text AS oldest_ms
  FROM outbox WHERE published_at IS NULL`;

/** Pending rows and the age of the oldest, for metrics; on any session of the service's database. */
export async function outboxBacklog(executor: DataSource | EntityManager): Promise<OutboxBacklog> {
  return backlogOf(await queryRows<BacklogRow>(executor, BACKLOG_SQL));
}

/** The same on a pg pool (the relay's own connection). */
export async function outboxBacklogOn(pool: pg.Pool): Promise<OutboxBacklog> {
  return backlogOf((await pool.query<BacklogRow>(BACKLOG_SQL)).rows);
}

function backlogOf(rows: BacklogRow[]): OutboxBacklog {
  const row = rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingAgeMs: row?.oldest_ms == null ? null : Math.max(0, Number(row.oldest_ms)),
  };
}
