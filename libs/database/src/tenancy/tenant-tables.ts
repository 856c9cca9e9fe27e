import type { QueryRunner } from 'typeorm';
import { tenantRoleName } from './tenant-role';

/**
 * A table whose rows belong to one company: by its own `company_id` column, or (`parent`) by the
 * row of a company-owned table it references, e.g. an invoice's lines through the invoice.
 */
export type TenantTable = string | { table: string; parent: { table: string; column: string; parentColumn: string } };

export const TENANT_POLICY_NAME = 'tenant_isolation';



/** `<database>_app`: the role request traffic runs as (see `tenantRoleName`). */
export async function tenantRoleOf(q: QueryRunner): Promise<string> {
  const [{ database }] = (await q.query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  return tenantRoleName(database);
}

/**
 * Tables with a `company_id` column that row-level security does not protect (RLS off or no
 * policy): a service's tests assert this is empty, so a new tenant table cannot be forgotten.
 */
export async function unprotectedTenantTables(query: (text: string) => Promise<Array<{ table: string }>>): Promise<string[]> {
  const rows = await query(
    `SELECT c.relname AS table FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
     WHERE c.relkind = 'r'
       AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)
       AND NOT (c.relrowsecurity AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = c.oid))
     ORDER BY 1`,
  );
  return rows.map((row) => row.table);
}
