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
  /** A copy of a visible row made `other`'s (or, for a child table, pointed at `other`'s parent): SQLSTATE, or 'accepted'. */
  insertForOther: string;
  /** `UPDATE ... SET company_id = other` (company tables only): SQLSTATE, or 'accepted'. */
  moveToOther?: string;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

class Rollback extends Error {}

async function sqlStateOf(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
    return 'accepted';
  } catch (error) {
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
              `SELECT ${quote(entry.parent.parentColumn)} AS id FROM ${quote(entry.parent.table)} WHERE company_id = $1 LIMIT 1`,
              [companies.other],
            ),
          )
        )[0]?.id;

  // Row identities (ctid) of `other`'s rows, as the truth to compare what the scope sees with.
  const otherRows = await runAsService(() =>
    queryRows<{ id: string }>(dataSource, `SELECT x.ctid::text AS id FROM ${t} x WHERE ${ownerOf} = $1`, [companies.other]),
  );
  const otherIds = new Set(otherRows.map((row) => row.id));

  return runAsCompany(companies.own, async () => {
    const visible = await queryRows<{ id: string }>(dataSource, `SELECT ctid::text AS id FROM ${t}`);
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
    const override = typeof entry === 'string' ? { company_id: companies.other } : { [entry.parent.column]: otherParent };
    const insertForOther = await sqlStateOf(() =>
      touched(
        `INSERT INTO ${t} OVERRIDING SYSTEM VALUE
         SELECT (jsonb_populate_record(NULL::${t}, to_jsonb(x) || '${JSON.stringify(override).replace(/'/g, "''")}'::jsonb)).*
         FROM ${t} x LIMIT 1 RETURNING 1`,
      ),
    );
    const moveToOther =
      typeof entry === 'string'
        ? await sqlStateOf(() =>
            touched(`UPDATE ${t} SET company_id = '${companies.other.replace(/'/g, "''")}' RETURNING 1`),
          )
        : undefined;
    return { table, rows, seen: visible.length, seenOfOther, updated, deleted, insertForOther, ...(moveToOther ? { moveToOther } : {}) };
  });
}
