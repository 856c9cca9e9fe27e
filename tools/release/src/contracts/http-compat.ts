import { apiCompare } from 'api-smart-diff';

type Doc = { paths?: Record<string, Record<string, unknown>> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/**
 * The breaking changes between two public OpenAPI documents for a client generated from `before`.
 *
 * api-smart-diff classifies the changes under `paths` (it resolves each operation's `$ref`s and
 * knows request from response): removed operations and responses, a new required parameter or
 * request field, a narrowed request enum, a removed response field. Changes it reports only under
 * `components` repeat those under `paths`, so they are skipped.
 *
 * Our rule on top: a changed `type` inside a response is breaking (the library calls it
 * non-breaking there; a generated client's deserializer fails on it).
 *
 * The way out of a breaking change is a new version path (`/api/v4/...`) beside the old one: the
 * old path's operations stay as they were, so nothing here reports it.
 */
export function httpBreakingChanges(before: Doc, after: Doc): { where: string; what: string }[] {
  const { diffs } = apiCompare(before, after);
  return diffs
    .filter((diff) => diff.path[0] === 'paths')
    .filter((diff) => diff.type === 'breaking' || isResponseTypeChange(diff.action, diff.path))
    .map((diff) => ({ where: operationOf(diff.path), what: diff.description ?? `${diff.action} ${diff.path.join('/')}` }));
}

function isResponseTypeChange(action: string, path: readonly (string | number)[]): boolean {
  return action === 'replace' && path.includes('responses') && path[path.length - 1] === 'type';
}

/** `POST /api/v3/SalesOrders` from a diff path `paths, /api/v3/SalesOrders, post, ...`. */
function operationOf(path: readonly (string | number)[]): string {
  const [, route, method] = path;
  return typeof method === 'string' && METHODS.has(method) ? `${method.toUpperCase()} ${String(route)}` : String(route);
}
