import { DataSource, type EntityManager, type ObjectLiteral } from 'typeorm';
import { queryRows } from './query-rows';

/**
 * Runs hand-written SQL written with named parameters (`:companyId`, `:...ids` for a list) and
 * returns its rows. The names are bound by the driver's own `escapeQueryWithParameters`, the
 * public method TypeORM's query builder uses, so raw SQL kept for speed reads like the builder's
 * and a statement cannot get its `$n` out of step with its values. Casts (`::jsonb`) are left as
 * they are: a name is bound only when it is a key of `parameters`.
 *
 * Never pass a function as a value: TypeORM inserts a function's result into the SQL unescaped.
 */
export async function namedQuery<T>(
  executor: DataSource | EntityManager,
  sql: string,
  parameters: ObjectLiteral,
): Promise<T[]> {
  const connection = executor instanceof DataSource ? executor : executor.connection;
  const [text, values] = connection.driver.escapeQueryWithParameters(sql, parameters);
  return queryRows<T>(executor, text, values);
}
