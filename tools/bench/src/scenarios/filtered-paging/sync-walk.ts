import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CUSTOMER_JSON } from '@erp/customers-queries';
import { timePage } from './page-timing';

export interface SyncWalk {
  pages: number;
  records: number;
  totalCount: number;
  seconds: number;
  /** False when the time budget ran out first: `seconds` is then a lower bound. */
  finished: boolean;
}

/**
 * What an integration's "everything changed since" run costs: every page of the filter, in
 * order, at the largest page size, one request at a time, until the records received reach the
 * current totalCount (the specification's rule). Stops at `budgetSeconds` (the old code is
 * quadratic: the walk would take tens of minutes).
 */
export async function walkEveryPage(baseUrl: string, path: string, headers: Record<string, string>, pageSize: number, budgetSeconds: number): Promise<SyncWalk> {
  const start = performance.now();
  let records = 0;
  let totalCount = 0;
  let pages = 0;
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await timePage(`${baseUrl}${path}&pageSize=${pageSize}&pageNumber=${pageNumber}`, headers);
    pages++;
    records += page.records;
    if (page.records > 0) totalCount = page.totalCount;
    const seconds = (performance.now() - start) / 1000;
    if (page.records === 0 || records >= totalCount) return { pages, records, totalCount, seconds, finished: true };
    if (seconds > budgetSeconds) return { pages, records, totalCount, seconds, finished: false };
  }
}

/**
 * The floor of the same read: one `COPY (SELECT ... ORDER BY internal_id) TO STDOUT` of the same
 * rows in the same order, streamed to nothing; `json` renders each row as the API does (the floor
 * of producing the API's output), otherwise the table's columns as they are (the floor of reading).
 */
export async function copyFloor(databaseUrl: string, companyId: string, from: string, json: boolean): Promise<{ seconds: number; rows: number }> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const literal = (v: string) => `'${v.replace(/'/g, "''")}'`;
    const start = performance.now();
    const stream = sql.query(
      copyTo(
        `COPY (SELECT ${json ? CUSTOMER_JSON : 'c.*'} FROM customers c WHERE c.company_id = ${literal(companyId)}
               AND c.last_modified_at >= ${literal(from)}::timestamp AT TIME ZONE 'UTC' ORDER BY c.internal_id) TO STDOUT`,
      ),
    );
    let rows = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // indexOf, not a byte loop: counting must not slow the floor down.
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) rows++;
    }
    return { seconds: (performance.now() - start) / 1000, rows };
  } finally {
    await sql.end();
  }
}
