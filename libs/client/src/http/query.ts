/** A query parameter value; arrays repeat the parameter (`expand=lines&expand=note`). */
export type QueryValue = string | number | boolean | Date | null | undefined | readonly (string | number | boolean)[];
export type Query = Readonly<Record<string, QueryValue>>;

/** Appends `query` to `url`, skipping null and undefined; dates as ISO 8601 UTC (`...Z`). */
export function appendQuery(url: URL, query: Query | undefined): void {
  if (!query) return;
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) url.searchParams.append(name, v instanceof Date ? v.toISOString() : String(v));
  }
}

/**
 * A v1 timestamp filter value: ISO 8601 UTC without zone and to the millisecond, which is how the v1
 * family writes and reads `lastModifiedDateTime` / `createdDateTime`.
 */
export function v1Timestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '');
}
