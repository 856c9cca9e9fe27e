/** A JSON record as the API returns it. */
export type ApiRecord = Record<string, unknown>;

/**
 * The record's fields as dot paths to scalar leaves (`mainAddress.city`), in the record's order.
 * Arrays stay whole (a sales order's lines do not fit a cell): they become one JSON cell.
 */
export function flattenRecord(record: ApiRecord, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(record)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [inner, leaf] of flattenRecord(value as ApiRecord, path)) out.set(inner, leaf);
    } else {
      out.set(path, value);
    }
  }
  return out;
}

/** Reads a dot path (`mainAddress.country.id`) from a record; undefined when any step is missing. */
export function valueAtPath(record: ApiRecord, path: string): unknown {
  let current: unknown = record;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as ApiRecord)[step];
  }
  return current;
}

/** One cell's text: empty for null/absent, JSON for arrays and objects, the plain value otherwise. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Paging metadata (`metadata.totalCount`) belongs to the list response, not to the record. */
export function withoutListMetadata(record: ApiRecord): ApiRecord {
  if (!('metadata' in record)) return record;
  const { metadata: _metadata, ...rest } = record;
  return rest;
}
