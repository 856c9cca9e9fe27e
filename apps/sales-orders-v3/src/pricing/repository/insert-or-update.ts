import type { EntityManager } from 'typeorm';
import { namedQuery } from '@erp/database';

/**
 * Inserts a row (`insert` ends in `ON CONFLICT ... DO NOTHING RETURNING 1`) or, when its key is
 * taken, runs `update` instead; answers whether the row was inserted (a PUT's 201 or 200).
 * Not one `ON CONFLICT DO UPDATE ... RETURNING xmax = 0`: requests reach the table through its
 * tenant view, which has no system columns. A concurrent first insert makes this one wait for it
 * to commit, then update.
 */
export async function insertOrUpdate(tx: EntityManager, statements: { insert: string; update: string }, parameters: Record<string, unknown>): Promise<boolean> {
  if ((await namedQuery(tx, statements.insert, parameters)).length === 1) return true;
  await namedQuery(tx, statements.update, parameters);
  return false;
}
