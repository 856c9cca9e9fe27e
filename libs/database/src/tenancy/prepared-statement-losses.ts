/**
 * Times a connection may find its prepared statements gone or another's in their place
 * (LOST_PREPARED_STATEMENT) before it stops preparing: each loss costs a retry.
 */
export const MAX_PREPARED_LOSSES = 3;
/**
 * What a server session answers when its prepared statements are not this connection's: it has
 * none of that name (26000: DISCARD ALL, or a pooler handed this exchange to another session), or
 * already one of that name (42P05: a pooler that keeps none left another client's there).
 */
const LOST_PREPARED_STATEMENT = new Set(['26000', '42P05']);

/** Whether `error` says the session's prepared statements are not this connection's: nothing ran, it may be sent again. */
export function isLostPreparedStatement(error: unknown): boolean {
  return LOST_PREPARED_STATEMENT.has((error as { code?: string } | undefined)?.code ?? '');
}

/** What a platform team sees (once per pool) when its pooler drops prepared statements. */
export function warnPreparedStatementsLost(): void {
  process.emitWarning(
    `a database connection lost its prepared statements ${MAX_PREPARED_LOSSES} times (SQLSTATE 26000 or 42P05) and stopped preparing: ` +
      'behind a pooler that keeps none (PgBouncer before 1.21, or max_prepared_statements = 0), set DATABASE_PREPARED_STATEMENTS=false',
    { code: 'ERP_PREPARED_STATEMENTS_LOST' },
  );
}
