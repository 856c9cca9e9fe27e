import { type FieldProblem, ValidationFailedError } from './api-error';
import { DETAIL_CODES } from './fault-codes';

/** The one message for a query parameter an endpoint does not take. */
export const UNKNOWN_PARAMETER_MESSAGE = 'is not a parameter of this endpoint';

/** The problem a query parameter the endpoint does not take is (for endpoints that list every problem in one 400). */
export function unknownParameterProblem(field: string): FieldProblem {
  return { field, message: UNKNOWN_PARAMETER_MESSAGE, code: DETAIL_CODES.unknownProperty };
}

/** One problem per parameter of `query` that is not in `known`. */
export function unknownParameterProblems(query: object, known: Iterable<string>): FieldProblem[] {
  const allowed = new Set(known);
  return Object.keys(query).filter((key) => !allowed.has(key)).map(unknownParameterProblem);
}

/**
 * Refuses, with one 400 naming each, the query parameters an endpoint does not take: a misspelt
 * filter must never silently return everything. Every endpoint refuses them through this.
 */
export function refuseUnknownParameters(query: object, known: Iterable<string>): void {
  const problems = unknownParameterProblems(query, known);
  if (problems.length > 0) throw new ValidationFailedError(problems);
}
