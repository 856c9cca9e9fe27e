import type { EntityManager } from 'typeorm';
import { namedQuery } from './named-query';

/** The two statements of a create-or-replace; each ends in `RETURNING` (`insert` after `ON CONFLICT (key) DO NOTHING`). */
export interface UpdateOrInsertStatements {
  update: string;
  insert: string;
}

/**
 * Creates or replaces one row in the caller's transaction and answers whether this call created it
 * (a PUT's 201 or 200), with the rows the statement that wrote it returned.
 *
 * Not one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING (xmax = 0)`: requests reach company
 * tables through their tenant views, which have no system columns. The UPDATE comes first because
 * an `INSERT ... ON CONFLICT` draws an identity value even when it conflicts. Two first writes of
 * one key at once both find nothing to update; one inserts, the other's insert waits for that
 * transaction, does nothing once it commits, and its second UPDATE replaces the row.
 */
export async function updateOrInsert<T>(tx: EntityManager, statements: UpdateOrInsertStatements, parameters: Record<string, unknown>): Promise<{ created: boolean; rows: T[] }> {
  const updated = await namedQuery<T>(tx, statements.update, parameters);
  if (updated.length > 0) return { created: false, rows: updated };
  const inserted = await namedQuery<T>(tx, statements.insert, parameters);
  if (inserted.length > 0) return { created: true, rows: inserted };
  const replaced = await namedQuery<T>(tx, statements.update, parameters);
  if (replaced.length === 0) throw new Error('updateOrInsert: the insert conflicted, but no row is there to update (does the UPDATE match the conflicting key?)');
  return { created: false, rows: replaced };
}
