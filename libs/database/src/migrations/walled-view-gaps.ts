import type { DataSource } from 'typeorm';

export interface WalledViewGap {
  /** The schema of the tenant view (`<db>_app`). */
  schema: string;
  table: string;
  /** Columns of the table the view does not show. */
  missing: string[];
}

/**
 * Tenant views that lack a column of their table. A view's `*` is expanded when it is created, so
 * a migration that adds a column to a walled table and does not make its view again leaves the
 * request role without the column: every request that reads or writes it fails with a 500. Found
 * from the catalogue: a view outside `public` named as a table of `public`, and the table's
 * columns missing from it.
 */
export async function walledViewGaps(dataSource: DataSource): Promise<WalledViewGap[]> {
  return (await dataSource.query(`
    SELECT vn.nspname AS schema, t.relname AS table, array_agg(a.attname::text ORDER BY a.attnum) AS missing
      FROM pg_class v
      JOIN pg_namespace vn ON vn.oid = v.relnamespace
      JOIN pg_class t ON t.relname = v.relname AND t.relkind IN ('r', 'p') AND t.relnamespace = 'public'::regnamespace
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE v.relkind = 'v' AND vn.nspname NOT IN ('public', 'pg_catalog', 'information_schema')
       AND NOT EXISTS (SELECT 1 FROM pg_attribute va WHERE va.attrelid = v.oid AND va.attname = a.attname AND NOT va.attisdropped)
     GROUP BY vn.nspname, t.relname
     ORDER BY 2`)) as WalledViewGap[];
}

/** The run's result refused, with the fix: the view made again in the migration that added the column. */
export class WalledViewGapError extends Error {
  constructor(readonly gaps: WalledViewGap[]) {
    super(
      gaps
        .map(
          ({ schema, table, missing }) =>
            `the tenant view ${schema}.${table} lacks the column(s) ${missing.join(', ')} of table ${table}: ` +
            `add them with addWalledColumnsV1(q, '${table}', [...]) (or call protectTablesByViewsV1(q, ['${table}']) after the ADD COLUMN) ` +
            `in the migration that added them, and dropWalledColumnsV1 in its down (docs/adding-a-field.md)`,
        )
        .join('; '),
    );
    this.name = 'WalledViewGapError';
  }
}
