import { createHash } from 'node:crypto';

/**
 * The comment that marks a statement as worth keeping prepared on its connection. A comment, so
 * that it travels unchanged through every way a service sends SQL (TypeORM's `DataSource.query`
 * takes only text and values) and means nothing to a server or a driver that does not read it.
 */
export const PREPARED_MARK = '/* prepared */';

/** Distinct marked texts whose name is remembered; past that, names are computed again (a hash). */
const MAX_REMEMBERED_NAMES = 2_000;
const nameByText = new Map<string, string>();

/**
 * Marks a statement to run as a named prepared statement, parsed and planned once per connection
 * instead of at every execution (transaction-scoped-pg.ts; DATABASE_PREPARED_STATEMENTS switches it
 * off). For statements run often whose planning is a large share of their cost, such as the list
 * pages. Only for statements whose result columns are named one by one (no `SELECT *`,
 * `RETURNING *`): a prepared statement whose result columns change under it (a column added by a
 * migration during a rollout) fails with "cached plan must not change result type".
 */
export function prepared(text: string): string {
  return text.startsWith(PREPARED_MARK) ? text : `${PREPARED_MARK}\n${text}`;
}

/**
 * The server-side name of a marked statement, derived from its text (the same text, the same name,
 * in every process and on every connection), or undefined for a statement not marked.
 */
export function preparedStatementName(text: string): string | undefined {
  if (!text.startsWith(PREPARED_MARK)) return undefined;
  let name = nameByText.get(text);
  if (name === undefined) {
    // 20 bytes of SHA-1 in base64url: 27 characters, within PostgreSQL's 63 for a name; the text
    // itself cannot be the name (too long), and a counter would differ between processes.
    name = `erp_${createHash('sha1').update(text).digest('base64url')}`;
    if (nameByText.size >= MAX_REMEMBERED_NAMES) nameByText.clear();
    nameByText.set(text, name);
  }
  return name;
}
