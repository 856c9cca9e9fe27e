/**
 * The most properties one object of a JSON request body may have. No object the API documents has
 * a tenth of this (an order header has about 60); a body beyond it is refused as a whole before
 * validation. Why: class-transformer's `plainToInstance`, the first step of the validation pipe,
 * costs quadratic time in an object's keys (2.2 s for 50,000 unknown keys, blocking the process's
 * every other request), and one 400 listing 50,000 unknown properties is 4.7 MB.
 */
export const MAX_OBJECT_PROPERTIES = 1_000;

/**
 * The first object (depth first) in `value` with more than MAX_OBJECT_PROPERTIES properties, with
 * its path as the validation problems name fields (`body`, `orderLines[3]`, `address.extra`), or
 * undefined. One pass over the body; arrays of any length are walked, not refused.
 */
export function firstWideObject(value: unknown): { field: string; properties: number } | undefined {
  const pending: Array<{ value: unknown; field: string }> = [{ value, field: '' }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const current = next.value;
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], field: `${next.field || 'body'}[${i}]` });
      continue;
    }
    const keys = Object.keys(current);
    if (keys.length > MAX_OBJECT_PROPERTIES) return { field: next.field || 'body', properties: keys.length };
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      pending.push({ value: (current as Record<string, unknown>)[key], field: next.field ? `${next.field}.${key}` : key });
    }
  }
  return undefined;
}
