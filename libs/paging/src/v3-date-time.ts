// ISO 8601 date, or date and time with an optional fraction and an optional zone (Z, +02:00, +0200).
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parses a v3 timestamp: ISO 8601, read as UTC unless it carries an offset (`Z`, `+02:00`,
 * `-0500`). A date alone means midnight UTC. In a URL query an unencoded `+` arrives as a space,
 * so `2026-04-21T10:00:00 02:00` is read as `+02:00`. Returns undefined for anything else,
 * including impossible dates such as 2026-02-30 or 25:00 and instants outside the years 1 to 9999 UTC.
 */
export function parseV3DateTime(input: string): Date | undefined {
  const value = input.trim().replace(/^(.*T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/i, '$1+$2');
  const m = ISO_DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  const millis = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const local = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  if (local.getUTCFullYear() !== year || local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day) return undefined;
  if (local.getUTCHours() !== hour || local.getUTCMinutes() !== minute || local.getUTCSeconds() !== second) return undefined;
  const zone = m[8];
  if (!zone || zone.toUpperCase() === 'Z') return local;
  const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!z) return undefined;
  const offsetHours = Number(z[2]);
  const offsetMinutes = Number(z[3]);
  if (offsetHours > 14 || offsetMinutes > 59) return undefined;
  const offsetMs = (z[1] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const instant = new Date(local.getTime() - offsetMs);
  // The offset can carry 9999-12-31 past year 9999 (or 0001-01-01 before year 1): an instant
  // PostgreSQL and ISO 8601's four-digit years cannot hold, so it is invalid, not a 500 later.
  const utcYear = instant.getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999 ? instant : undefined;
}
