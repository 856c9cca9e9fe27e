/**
 * PostgreSQL's `integer` (int4), the type of the ids that live in 32 bits (line ids). A number
 * outside it that reaches SQL as a parameter fails the statement ("out of range for type
 * integer"), which was a 500; values are checked against it before any query.
 */
export const PG_INTEGER_MAX = 2_147_483_647;
export const PG_INTEGER_MIN = -2_147_483_648;

/** True for a safe integer that a PostgreSQL `integer` column or parameter can hold. */
export function isPgInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= PG_INTEGER_MIN && (value as number) <= PG_INTEGER_MAX;
}
