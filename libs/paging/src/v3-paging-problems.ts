import { type FieldProblem, ValidationFailedError } from '@erp/errors';
import { parseV3Paging, type V3PageRequest, type V3PagingOptions } from './v3-paging';

type QueryValue = string | string[] | undefined;

/**
 * `parseV3Paging` for a parser that lists every problem of a request in one 400: the problems of
 * `pageIndex` and of `pageSize` are each added to `problems` (both, not the first only), and the
 * page is undefined when there is any.
 */
export function parseV3PagingCollecting(
  query: Record<string, QueryValue>,
  options: V3PagingOptions,
  problems: FieldProblem[],
  state: { expanded: boolean } = { expanded: false },
): V3PageRequest | undefined {
  let failed = false;
  for (const name of ['pageIndex', 'pageSize']) {
    try {
      parseV3Paging({ [name]: query[name] }, options, state);
    } catch (error) {
      if (!(error instanceof ValidationFailedError)) throw error;
      problems.push(...error.fieldProblems);
      failed = true;
    }
  }
  return failed ? undefined : parseV3Paging(query, options, state);
}
