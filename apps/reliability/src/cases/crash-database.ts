import { Client } from 'pg';

/** What the crash case reads from the services' databases: their outboxes, and when they have settled. */

/** One committed change's event, as its service's outbox holds it (written in the change's transaction). */
export interface OutboxEvent {
  service: string;
  id: string;
  sequence: number;
  type: string;
  subject: string;
  published: boolean;
  data: Record<string, unknown>;
}

export async function query<T>(databaseUrl: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every outbox row of the company in every service database, in commit (sequence) order per service. */
export async function outboxEvents(databaseUrls: Record<string, string>, company: string): Promise<OutboxEvent[]> {
  const all: OutboxEvent[] = [];
  for (const [service, url] of Object.entries(databaseUrls)) {
    if (!(await hasOutbox(url))) continue;
    const rows = await query<{ id: string; sequence: string; event_type: string; payload: { subject: string; data: Record<string, unknown> }; published: boolean }>(
      url,
      // Ordered by the column, not the text alias (which would sort 10 before 9).
      `SELECT id, sequence::text, event_type, payload, published_at IS NOT NULL AS published
         FROM outbox WHERE payload->>'companyId' = $1 ORDER BY outbox.sequence`,
      [company],
    );
    for (const row of rows) {
      all.push({
        service,
        id: row.id,
        sequence: Number(row.sequence),
        type: row.event_type,
        subject: row.payload.subject,
        published: row.published,
        data: row.payload.data,
      });
    }
  }
  return all;
}

async function hasOutbox(databaseUrl: string): Promise<boolean> {
  const rows = await query<{ found: boolean }>(databaseUrl, `SELECT to_regclass('public.outbox') IS NOT NULL AS found`);
  return rows[0].found;
}

/** Rows still waiting for the relay, over every service database. */
export async function unpublishedCount(databaseUrls: Record<string, string>): Promise<number> {
  let total = 0;
  for (const url of Object.values(databaseUrls)) {
    if (!(await hasOutbox(url))) continue;
    const rows = await query<{ n: string }>(url, `SELECT count(*)::text AS n FROM outbox WHERE published_at IS NULL`);
    total += Number(rows[0].n);
  }
  return total;
}

/**
 * Waits until no service database changes any more: every outbox published and the outboxes'
 * sizes unchanged for `quietMs`. A request the client gave up on (timeout) may still commit on a
 * slow service, so the checks must not start while one is in flight.
 */
export async function waitForQuiet(databaseUrls: Record<string, string>, quietMs: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  let last = '';
  let since = Date.now();
  for (;;) {
    const parts: string[] = [];
    for (const url of Object.values(databaseUrls)) {
      if (!(await hasOutbox(url))) continue;
      const [row] = await query<{ n: string; unpublished: string }>(
        url,
        `SELECT count(*)::text AS n, count(*) FILTER (WHERE published_at IS NULL)::text AS unpublished FROM outbox`,
      );
      parts.push(`${row.n}/${row.unpublished}`);
    }
    const state = parts.join(' ');
    const drained = parts.every((part) => part.endsWith('/0'));
    if (state !== last || !drained) {
      last = state;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return Date.now() - started;
    }
    if (Date.now() - started > timeoutMs) throw new Error(`the databases did not settle within ${timeoutMs} ms (outbox rows/unpublished: ${state})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
