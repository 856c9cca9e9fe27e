import { ValidationFailedError } from '@erp/errors';

/**
 * Reads a v3 `expand` parameter: comma-separated and/or repeated (`expand=lines,customer` or
 * `expand=lines&expand=customer`), case-insensitive, `all` meaning every value. Unknown or empty
 * values are a 400 naming them, so a misspelt expansion never silently returns less. Returns the
 * canonical names (as spelt in `allowed`); an empty set when the parameter is absent. `nothing` lists
 * values that are accepted and add no part (the v3 document's `None`).
 */
export function parseV3Expand<T extends string>(
  value: string | string[] | undefined,
  allowed: readonly T[],
  name = 'expand',
  nothing: readonly string[] = [],
): Set<T> {
  const result = new Set<T>();
  if (value === undefined) return result;
  const byLowerCase = new Map(allowed.map((v) => [v.toLowerCase(), v] as const));
  const unknown: string[] = [];
  for (const raw of Array.isArray(value) ? value : [value]) {
    for (const piece of raw.split(',')) {
      const token = piece.trim().toLowerCase();
      if (token === 'all') {
        allowed.forEach((v) => result.add(v));
        continue;
      }
      if (nothing.some((v) => v.toLowerCase() === token)) continue;
      const known = byLowerCase.get(token);
      if (known) result.add(known);
      else unknown.push(piece.trim());
    }
  }
  if (unknown.length > 0) {
    const shown = unknown.map((u) => (u === '' ? '(empty)' : JSON.stringify(u.slice(0, 40)))).join(', ');
    throw ValidationFailedError.of(name, `has unknown value(s) ${shown}; allowed: ${[...allowed, 'all', ...nothing].join(', ')}`);
  }
  return result;
}
