import { DataSource, type EntityManager } from 'typeorm';

/**
 * Runs hand-written SQL and returns its rows, whatever the statement. TypeORM's plain `query()`
 * returns `[rows, rowCount]` for UPDATE and DELETE but bare rows otherwise; reading the structured
 * result here keeps `UPDATE ... RETURNING` (the conditional writes behind If-Match) unambiguous.
 */
export async function queryRows<T>(
  executor: DataSource | EntityManager,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const own = executor instanceof DataSource ? executor.createQueryRunner() : undefined;
  const runner = own ?? (executor as EntityManager).queryRunner;
  if (!runner)
    return (executor as EntityManager).connection.transaction((tx) => queryRows<T>(tx, text, values));
  try {
    const result = await runner.query(text, values, true);
    return result.records as T[];
  } finally {
    await own?.release();
  }
}
