import { tenantRoleName } from './tenant-role';

/**
 * A table whose rows belong to one company: by its own `company_id` column, or (`parent`) by the
 * row of a company-owned table it references, e.g. an invoice's lines through the invoice.
 */
export type TenantTable = string | { table: string; parent: { table: string; column: string; parentColumn: string } };

/**
 * Tables with a `company_id` column that the tenant wall leaves open to the request role: neither
 * row-level security with a policy, nor (the view form) closed to the role and reached through a
 * view of the same name in the role's schema that filters by the bound company, refuses rows of
 * another (cascaded check option) and has every column of the table. A service's tests assert this
 * is empty, so a new tenant table, or a column added without refreshing its view, cannot be missed.
 */
export async function unprotectedTenantTables(query: (text: string) => Promise<Array<Record<string, string>>>): Promise<string[]> {
  const [{ database }] = await query(`SELECT current_database() AS database`);
  const role = tenantRoleName(database).replace(/'/g, "''");
  const columns = (relation: string) =>
    `(SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = ${relation} AND a.attnum > 0 AND NOT a.attisdropped)`;
  const rows = await query(
    `WITH wall AS (SELECT r.oid AS role FROM pg_roles r WHERE r.rolname = '${role}')
     SELECT c.relname AS table FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE c.relkind = 'r'
       AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
       AND NOT (c.relrowsecurity AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid))
       AND NOT EXISTS (
         SELECT 1 FROM wall
         JOIN pg_namespace vn ON vn.nspname = '${role}'
         JOIN pg_class v ON v.relnamespace = vn.oid AND v.relname = c.relname AND v.relkind = 'v'
         WHERE NOT has_table_privilege(wall.role, c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
           AND 'check_option=cascaded' = ANY (v.reloptions)
           -- How PostgreSQL prints a view whose only condition is the bound company's: 15 names
           -- the table in it, 18 (the tests' embedded server) does not; a varchar column is cast.
           AND EXISTS (SELECT 1 FROM unnest(ARRAY[c.relname || '.company_id', 'company_id']) AS col (name),
                                     unnest(ARRAY['((%s)::text', '(%s']) AS form (text)
                       WHERE right(pg_get_viewdef(v.oid), length(format('WHERE ' || form.text || $w$ = current_setting('app.company_id'::text, true));$w$, col.name)))
                           = format('WHERE ' || form.text || $w$ = current_setting('app.company_id'::text, true));$w$, col.name))
           AND EXISTS (SELECT 1 FROM pg_rewrite w JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = w.oid
                       WHERE w.ev_class = v.oid AND d.refobjid = c.oid)
           AND ${columns('v.oid')} = ${columns('c.oid')})
     ORDER BY 1`,
  );
  return rows.map((row) => row['table'] ?? '');
}
