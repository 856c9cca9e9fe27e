import { createHash } from 'node:crypto';
import type { QueryRunner } from 'typeorm';

// HISTORY: applied migrations ran this code. It never changes (tools/workspace-rules checks its
// hash, with every migration's); a migration that needs other SQL gets a new version beside it.
// Self-contained on purpose, like tenant-views.v1.ts: role, schema, setting and the views'
// definitions written out as tenant-views.v1.ts and tenant-views-over-policies.v1.ts make them.
//
// A column added to or dropped from a walled table (one the request role reaches only through its
// tenant view). A view's `*` was expanded when the view was created, so the view must be made
// again after ADD COLUMN, or the service's requests miss the column (a 500); and PostgreSQL
// refuses DROP COLUMN while the view reads it. Both halves re-runnable (IF [NOT] EXISTS), as the
// runner may run a migration again after a lock timeout.

const OWN_COMPANY = `company_id = current_setting('app.company_id', true)`;
const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** A company table by its own `company_id`, or one whose rows belong to their parent row's company. */
export type WalledTableV1 = string | { table: string; parent: { table: string; column: string; parentColumn: string } };

const tableOf = (entry: WalledTableV1) => (typeof entry === 'string' ? entry : entry.table);

/** `<database>_app`, over 63 bytes a prefix and a hash of the whole name. */
async function roleOf(q: QueryRunner): Promise<string> {
  const [{ database }] = (await q.query(`SELECT current_database() AS database`)) as Array<{ database: string }>;
  const plain = `${database}_app`;
  if (Buffer.byteLength(plain) <= 63) return plain;
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 12);
  return `${database.slice(0, 63 - '_app'.length - hash.length - 1)}_${hash}_app`;
}

/** The table's tenant view made again over all its columns, as the wall's helpers define it. */
async function protect(q: QueryRunner, entry: WalledTableV1): Promise<void> {
  const role = quote(await roleOf(q));
  const table = quote(tableOf(entry));
  const view = `${role}.${table}`;
  const rows =
    typeof entry === 'string'
      ? `SELECT * FROM public.${table} WHERE ${OWN_COMPANY}`
      : `SELECT * FROM public.${table} x
         WHERE EXISTS (SELECT 1 FROM public.${quote(entry.parent.table)} p
                       WHERE p.${quote(entry.parent.parentColumn)} = x.${quote(entry.parent.column)} AND p.${OWN_COMPANY})`;
  await q.query(`DROP VIEW IF EXISTS ${view}`);
  await q.query(`CREATE VIEW ${view} WITH (check_option = cascaded) AS ${rows}`);
  await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ${view} TO ${role}`);
}

/**
 * `up`: each column added (`definitions` as after ADD COLUMN: `payment_reference varchar(30)`;
 * nullable or with a constant default, an expand step: docs/migrations.md), then the table's view
 * made again with it.
 */
export async function addWalledColumnsV1(q: QueryRunner, entry: WalledTableV1, definitions: string[]): Promise<void> {
  const table = quote(tableOf(entry));
  for (const definition of definitions) await q.query(`ALTER TABLE public.${table} ADD COLUMN IF NOT EXISTS ${definition}`);
  await protect(q, entry);
}

/**
 * `down` of addWalledColumnsV1: the view dropped (in whichever schema holds it), the columns
 * dropped, the view made again without them.
 */
export async function dropWalledColumnsV1(q: QueryRunner, entry: WalledTableV1, columns: string[]): Promise<void> {
  const name = tableOf(entry);
  const views = (await q.query(
    `SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind = 'v' AND c.relname = $1 AND n.nspname <> 'public'`,
    [name],
  )) as Array<{ schema: string }>;
  for (const { schema } of views) await q.query(`DROP VIEW IF EXISTS ${quote(schema)}.${quote(name)}`);
  for (const column of columns) await q.query(`ALTER TABLE public.${quote(name)} DROP COLUMN IF EXISTS ${quote(column)}`);
  await protect(q, entry);
}
