import type { Client } from 'pg';
import { MIGRATIONS_TABLE_NAME } from '../data-source/create-data-source';
import { withAdminClient } from './database-admin';

/**
 * A note on a database saying which migration sources last migrated it in full, so that a start
 * on the same sources can leave its migrate process out (`npm start`: five processes, about 13 s of
 * CPU, on every start of a person's day). The note is the database's comment: it goes with the
 * database (a reset, another checkout's server), needs no table of ours, and carries a digest of
 * the applied migrations' names, so a migration reverted or applied by hand since makes it stale.
 *
 * Not for production: there the migration Job always runs (the runner is the one that knows).
 */
const PREFIX = 'erp: migrated from sources';

/** True when `sources` (a hash of the migration files) migrated this database last and nothing was reverted since. */
export async function isMigratedFrom(databaseUrl: string, sources: string): Promise<boolean> {
  return withAdminClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ note: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = current_database()`,
    );
    const note = rows[0]?.note;
    if (!note?.startsWith(`${PREFIX} ${sources},`)) return false;
    return note === noteFor(sources, await appliedMigrations(client));
  });
}

/** Records that `sources` have just migrated this database in full (after its migrate exited 0). */
export async function markMigratedFrom(databaseUrl: string, sources: string): Promise<void> {
  await withAdminClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ name: string }>(`SELECT current_database() AS name`);
    const name = client.escapeIdentifier(rows[0]?.name as string);
    await client.query(`COMMENT ON DATABASE ${name} IS ${client.escapeLiteral(noteFor(sources, await appliedMigrations(client)))}`);
  });
}

function noteFor(sources: string, applied: string): string {
  return `${PREFIX} ${sources}, applied ${applied}`;
}

/** A digest of the applied migrations' names (TypeORM's table), or `none` without the table. */
async function appliedMigrations(client: Client): Promise<string> {
  const { rows } = await client.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [MIGRATIONS_TABLE_NAME]);
  if (!rows[0]?.present) return 'none';
  const digest = await client.query<{ applied: string }>(
    `SELECT count(*) || ':' || md5(coalesce(string_agg(name, ',' ORDER BY name), '')) AS applied FROM ${client.escapeIdentifier(MIGRATIONS_TABLE_NAME)}`,
  );
  return digest.rows[0]?.applied as string;
}
