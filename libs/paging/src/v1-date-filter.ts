import { ValidationFailedError } from '@erp/errors';

export type ComparisonOperator = '>' | '>=' | '<' | '<=' | '=';

const OPERATORS: ReadonlySet<string> = new Set(['>', '>=', '<', '<=', '=']);

/** A v1 timestamp filter such as `lastModifiedDateTime` + `lastModifiedDateTimeCondition`. */
export interface V1DateTimeFilter {
  operator: ComparisonOperator;
  /** UTC instant, ISO 8601 with milliseconds and Z. */
  value: string;
}

// ISO 8601 without a zone: date, optional time with optional fraction. The value is read as UTC.
const LOCAL_ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;

function parseLocalIsoAsUtc(value: string): Date | undefined {
  const m = LOCAL_ISO.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number);
  const millis = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis));
  // Reject rollovers such as 2026-02-30 or 25:00.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (date.getUTCHours() !== hour || date.getUTCMinutes() !== minute || date.getUTCSeconds() !== second) return undefined;
  return date;
}

/**
 * Reads `<name>` and `<name>Condition` from a v1 query. The condition defaults to `>=`. A value
 * that is not an ISO 8601 timestamp without zone, or an unknown operator, is a 400 naming the
 * parameter. Returns undefined when the filter is absent.
 */
export function parseV1DateTimeFilter(
  query: Record<string, string | string[] | undefined>,
  name: string,
): V1DateTimeFilter | undefined {
  const conditionName = `${name}Condition`;
  const raw = query[name];
  const condition = query[conditionName];
  if (Array.isArray(raw)) throw ValidationFailedError.of(name, 'must be given once');
  if (Array.isArray(condition)) throw ValidationFailedError.of(conditionName, 'must be given once');
  if (condition !== undefined && !OPERATORS.has(condition.trim())) {
    throw ValidationFailedError.of(conditionName, 'must be one of >, >=, <, <=, =');
  }
  if (raw === undefined) return undefined;
  const date = parseLocalIsoAsUtc(raw.trim());
  if (!date) {
    throw ValidationFailedError.of(name, 'must be an ISO 8601 timestamp without zone, e.g. 2026-04-21T10:15:00');
  }
  return { operator: (condition?.trim() ?? '>=') as ComparisonOperator, value: date.toISOString() };
}
