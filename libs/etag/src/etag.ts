import { PreconditionRequiredError } from '@erp/errors';

/**
 * ETags are the row's version: a value drawn from a database sequence on every write, so a tag
 * never repeats for a different state (not even after a delete and re-create). Tags are strong.
 */
export function formatEtag(version: string | number | bigint): string {
  return `"${String(version)}"`;
}

/** The parsed If-Match header: `*`, or the strong tags it lists (weak tags never match). */
export type IfMatchCondition = { any: true } | { any: false; versions: string[] };

/**
 * Parses If-Match (RFC 9110 §13.1.1). Weak tags (`W/"..."`) are dropped because If-Match uses
 * strong comparison. A bare unquoted value is accepted as a tag too: clients of the v1 family
 * often send the `timeStamp` field as it is.
 */
export function parseIfMatch(header: string | string[] | undefined): IfMatchCondition | undefined {
  const raw = Array.isArray(header) ? header.join(',') : header;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.trim() === '*') return { any: true };
  const versions: string[] = [];
  for (const part of raw.split(',')) {
    const tag = part.trim();
    if (tag === '' || tag.startsWith('W/')) continue;
    const quoted = /^"([^"]*)"$/.exec(tag);
    versions.push(quoted ? quoted[1] : tag);
  }
  return { any: false, versions };
}

/** v3 rule: every write must carry If-Match (428 otherwise). */
export function requireIfMatch(header: string | string[] | undefined): IfMatchCondition {
  const parsed = parseIfMatch(header);
  if (!parsed) throw new PreconditionRequiredError();
  return parsed;
}

/**
 * The versions to pass to a conditional UPDATE (`WHERE version = ANY($n)`), or null for "any
 * version". Only numeric tags can ever equal a stored version; others are dropped here so they
 * cannot reach SQL as malformed bigints (the UPDATE then matches nothing and the caller answers 412).
 */
export function versionsForUpdate(ifMatch: IfMatchCondition | undefined): string[] | null {
  if (!ifMatch || ifMatch.any) return null;
  return ifMatch.versions.filter((v) => /^\d{1,19}$/.test(v));
}

/** Strong comparison of an If-Match against the current version (for reads and tests; writes use SQL). */
export function ifMatchAllows(ifMatch: IfMatchCondition | undefined, currentVersion: string): boolean {
  if (!ifMatch || ifMatch.any) return true;
  return ifMatch.versions.includes(currentVersion);
}
