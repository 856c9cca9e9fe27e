/**
 * Whether a conditional GET's If-None-Match (RFC 9110 §13.1.2) matches the current ETag: `*`, or
 * any listed tag by weak comparison (`W/"7"` matches `"7"`). Absent or blank: no match.
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  const raw = Array.isArray(header) ? header.join(',') : header;
  if (raw === undefined || raw.trim() === '') return false;
  if (raw.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return raw.split(',').some((tag) => opaque(tag) === opaque(etag));
}
