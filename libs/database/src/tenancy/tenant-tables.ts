import { tenantRoleName } from './tenant-role';
import { ruleWallsTable, type WalledTable } from './view-rule';

/**
 * A table whose rows belong to one company: by its own `company_id` column, or (`parent`) by the
 * row of a company-owned table it references, e.g. an invoice's lines through the invoice.
 */
export type TenantTable = string | { table: string; parent: { table: string; column: string; parentColumn: string } };

const PRIVILEGES = `'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER'`;
const COLUMN_PRIVILEGES = `'SELECT, INSERT, UPDATE, REFERENCES'`;

/**
 * Company tables (a `company_id` column, or a foreign key to a company table) that the tenant wall
 * leaves open to the request role. A table is walled when, by the catalogue's structure (not the
 * view's printed SQL, which changes between PostgreSQL versions):
 * - the role has no privilege on it, on the table or on any column;
 * - the role's schema holds a view of the same name, with `check_option=cascaded`, updatable
 *   through to one table (pg_relation_is_updatable), with the table's columns (names and types);
 * - that view's rule (view-rule.ts) reads exactly this table, shows every column as it is, and
 *   admits the bound company's rows only (own `company_id`, or the parent row's).
 * A service's tests assert this is empty, so a new tenant table, or a column added without
 * refreshing its view, cannot be missed.
 */
export async function unprotectedTenantTables(query: (text: string) => Promise<Array<Record<string, string>>>): Promise<string[]> {
  const [{ database }] = await query(`SELECT current_database() AS database`);
  const role = tenantRoleName(database ?? '').replace(/'/g, "''");
  const columns = (relation: string, what: string) =>
    `(SELECT array_agg(${what} ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = ${relation} AND a.attnum > 0 AND NOT a.attisdropped)`;
  const rows = await query(
    `WITH RECURSIVE company AS (
       SELECT c.oid FROM pg_class c
       WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
         AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
       UNION
       SELECT f.conrelid FROM pg_constraint f JOIN company ON f.confrelid = company.oid WHERE f.contype = 'f'
     ), wall AS (
       SELECT (SELECT oid FROM pg_roles WHERE rolname = '${role}') AS role, (SELECT oid FROM pg_namespace WHERE nspname = '${role}') AS schema
     )
     SELECT c.relname AS table, c.oid::text AS oid,
       (SELECT a.attnum FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)::text AS company_column,
       array_to_json(${columns('c.oid', 'a.attnum')})::text AS columns,
       (wall.role IS NOT NULL AND NOT has_table_privilege(wall.role, c.oid, ${PRIVILEGES})
         AND NOT has_any_column_privilege(wall.role, c.oid, ${COLUMN_PRIVILEGES}))::text AS closed,
       (v.oid IS NOT NULL AND 'check_option=cascaded' = ANY (v.reloptions) AND pg_relation_is_updatable(v.oid, false) = 28
         AND ${columns('v.oid', '(a.attname, a.atttypid)')} = ${columns('c.oid', '(a.attname, a.atttypid)')})::text AS view_shaped,
       (SELECT w.ev_action::text FROM pg_rewrite w WHERE w.ev_class = v.oid AND w.rulename = '_RETURN') AS action,
       coalesce((SELECT json_agg(json_build_object('oid', f.confrelid::text, 'companyColumn', pa.attnum, 'column', f.conkey[1],
                                                   'parentColumn', f.confkey[1], 'equality', f.conpfeqop[1]::text))
                 FROM pg_constraint f
                 JOIN pg_attribute pa ON pa.attrelid = f.confrelid AND pa.attname = 'company_id' AND NOT pa.attisdropped
                 WHERE f.conrelid = c.oid AND f.contype = 'f' AND cardinality(f.conkey) = 1), '[]')::text AS parents,
       'pg_catalog.texteq'::regproc::oid::text AS text_eq,
       'pg_catalog.current_setting(text, boolean)'::regprocedure::oid::text AS current_setting
     FROM company JOIN pg_class c ON c.oid = company.oid CROSS JOIN wall
     LEFT JOIN pg_class v ON v.relnamespace = wall.schema AND v.relname = c.relname AND v.relkind = 'v'
     ORDER BY 1`,
  );
  return rows
    .filter((row) => {
      if (row['closed'] !== 'true' || row['view_shaped'] !== 'true' || !row['action']) return true;
      const facts: WalledTable = {
        oid: row['oid'] as string,
        columns: JSON.parse(row['columns'] as string) as number[],
        companyColumn: row['company_column'] ? Number(row['company_column']) : null,
        parents: JSON.parse(row['parents'] as string) as WalledTable['parents'],
        textEq: row['text_eq'] as string,
        currentSetting: row['current_setting'] as string,
      };
      return !ruleWallsTable(row['action'], facts);
    })
    .map((row) => row['table'] ?? '');
}
