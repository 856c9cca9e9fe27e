import type { DataSource } from 'typeorm';
import { queryRows } from '../sql/query-rows';
import type { TenantTable } from './tenant-tables';
import { runAsCompany, runAsService } from './tenant-scope';

/** What the statements a buggy handler could run (no company filter) did, in `own`'s scope. */
export interface TenantWallReport {
  table: string;
  /** Rows of `own` and of `other` in the table, counted as the service (across companies). */
  rows: { own: number; other: number };
  /** `SELECT` without a company filter: rows seen, and how many of them were `other`'s. */
  seen: number;
  seenOfOther: number;
  /** `UPDATE` / `DELETE` without a filter (the delete rolled back): rows touched. */
  updated: number;
  deleted: number;
  /**
   * A visible row deleted, then written again as another company's (a company without rows; for a
   * child table, pointed at a parent of `other`'s, one without children where there is one, so that
   * no key the copy shares with `other`'s children answers before the wall): SQLSTATE, or 'accepted'.
   */
  insertForOther: string;
  /**
   * A visible row moved by `UPDATE ... SET company_id` to a company without rows (company tables
   * only): SQLSTATE, or 'accepted'. Not to `other`: a tenant view checks a row after its unique
   * keys, so a key `other` uses too would answer 23505 before the wall could.
   */
  moveToOther?: string;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

class Rollback extends Error {}

/** A company no test data uses. */
const UNUSED_COMPANY = 'tenant-wall-probe';

async function sqlStateOf(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'accepted';
  } catch (error) {
    // Rolled back by the probe itself: the statement was accepted.
    if (error instanceof Rollback) return 'accepted';
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * Runs, through `dataSource` (a service's own, created with `tenantIsolation: true`) and in `own`'s company
 * scope, the statements a handler that forgot `WHERE company_id` would run against `entry`, and
 * reports what they reached. Nothing is left changed: writes that succeed run in transactions
 * that are rolled back. Both companies need at least one row in the table.
 */
export async function probeTenantWall(
  dataSource: DataSource,
  entry: TenantTable,
  companies: { own: string; other: string },
): Promise<TenantWallReport> {
  const table = typeof entry === 'string' ? entry : entry.table;
  const t = quote(table);
  const ownerOf =
    typeof entry === 'string'
      ? `x.company_id`
      : `(SELECT p.company_id FROM ${quote(entry.parent.table)} p WHERE p.${quote(entry.parent.parentColumn)} = x.${quote(entry.parent.column)})`;
  const countsAs = () =>
    queryRows<{ own: number; other: number }>(
      dataSource,
      `SELECT count(*) FILTER (WHERE ${ownerOf} = $1)::int AS own, count(*) FILTER (WHERE ${ownerOf} = $2)::int AS other FROM ${t} x`,
      [companies.own, companies.other],
    );
  const [rows] = await runAsService(countsAs);
  const otherParent =
    typeof entry === 'string'
      ? undefined
      : (
          await runAsService(() =>
            queryRows<{ id: unknown }>(
              dataSource,
              `SELECT p.${quote(entry.parent.parentColumn)} AS id FROM ${quote(entry.parent.table)} p WHERE p.company_id = $1
               ORDER BY EXISTS (SELECT 1 FROM ${t} c WHERE c.${quote(entry.parent.column)} = p.${quote(entry.parent.parentColumn)}) LIMIT 1`,
              [companies.other],
            ),
          )
        )[0]?.id;

  // Row identities (a hash of the whole row: a tenant view has no ctid) of `other`'s rows, as the
  // truth to compare what the scope sees with.
  const otherRows = await runAsService(() =>
    queryRows<{ id: string }>(dataSource, `SELECT md5(to_jsonb(x)::text) AS id FROM ${t} x WHERE ${ownerOf} = $1`, [companies.other]),
  );
  const otherIds = new Set(otherRows.map((row) => row.id));

  return runAsCompany(companies.own, async () => {
    const visible = await queryRows<{ id: string }>(dataSource, `SELECT md5(to_jsonb(x)::text) AS id FROM ${t} x`);
    const seenOfOther = visible.filter((row) => otherIds.has(row.id)).length;
    const touched = async (statement: string): Promise<number> => {
      let count = 0;
      await dataSource
        .transaction(async (tx) => {
          count = (await queryRows(tx, statement)).length;
          throw new Rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof Rollback)) throw error;
        });
      return count;
    };
    const someColumn = typeof entry === 'string' ? 'company_id' : entry.parent.column;
    const updated = await touched(`UPDATE ${t} SET ${quote(someColumn)} = ${quote(someColumn)} RETURNING 1`);
    const deleted = await touched(`DELETE FROM ${t} RETURNING 1`);
    const override = typeof entry === 'string' ? { company_id: UNUSED_COMPANY } : { [entry.parent.column]: otherParent };
    // The row is deleted first, so that the copy cannot fail on a unique key before the wall sees
    // it (a view's check option is checked after the row's index entries are made).
    const insertForOther = await sqlStateOf(() =>
      dataSource.transaction(async (tx) => {
        const [{ row }] = await queryRows<{ row: unknown }>(tx, `SELECT to_jsonb(x) AS row FROM ${t} x LIMIT 1`);
        await queryRows(tx, `DELETE FROM ${t} x WHERE to_jsonb(x) = $1::jsonb`, [row]);
        await queryRows(
          tx,
          `INSERT INTO ${t} OVERRIDING SYSTEM VALUE SELECT (jsonb_populate_record(NULL::${t}, $1::jsonb || $2::jsonb)).*`,
          [row, JSON.stringify(override)],
        );
        throw new Rollback();
      }),
    );
    const moveToOther =
      typeof entry === 'string'
        ? await sqlStateOf(() =>
            touched(`UPDATE ${t} x SET company_id = '${UNUSED_COMPANY}' WHERE to_jsonb(x) = (SELECT to_jsonb(y) FROM ${t} y LIMIT 1) RETURNING 1`),
          )
        : undefined;
    return { table, rows, seen: visible.length, seenOfOther, updated, deleted, insertForOther, ...(moveToOther ? { moveToOther } : {}) };
  });
}
