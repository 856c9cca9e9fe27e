import Decimal from 'decimal.js';

/**
 * The one decimal rule of every money and quantity field of every API (docs/api-conventions.md
 * "Decimals"). A value is either
 * - a JSON number of at most 15 significant digits (a double carries 15 exactly, so it arrives as
 *   the client wrote it), whatever JSON notation the client used for it (`1e3` is the number 1000), or
 * - a string in plain decimal notation: an optional `-`, digits, and optionally `.` and digits.
 *   No exponent, no `+`, no leading or trailing point, no spaces, no separators: what every
 *   decimal type and every client's formatter writes, and what the published documents' pattern
 *   (`DECIMAL_STRING.source`, used by `DECIMAL_INPUT` of `@erp/openapi`) says.
 * Values never pass through binary floating point on their way to `numeric` columns.
 */
export const DECIMAL_STRING = /^-?\d+(\.\d+)?$/;

/**
 * JSON numbers are IEEE doubles on every common parser: beyond 15 significant digits the number a
 * client wrote may not be the number that arrives. Such values must be sent as decimal strings.
 */
export const MAX_JSON_NUMBER_DIGITS = 15;

/** The digits a field allows before and after the decimal point (its `numeric(p, s)` column). */
export interface DecimalLimits {
  maxIntegerDigits: number;
  maxScale: number;
}

/** The exact decimal a body value stands for under the rule, or undefined when it is not one. */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    // The shortest text that reads back as this double: 0.1 is 0.1, not 0.1000000000000000055...
    const decimal = new Decimal(String(value));
    // precision(true) counts the integer part's trailing zeros: 100000000000000001 arrives as
    // 1e17, one significant digit that does not show that the client's last digit was lost.
    return decimal.precision(true) > MAX_JSON_NUMBER_DIGITS ? undefined : decimal;
  }
  if (typeof value === 'string' && DECIMAL_STRING.test(value)) return new Decimal(value);
  return undefined;
}

/** Canonical text of a validated decimal, for SQL (`CAST(:x AS numeric)`): exact, no exponent, no trailing zeros. */
export function decimalText(value: unknown): string {
  const decimal = parseDecimal(value);
  if (!decimal) throw new Error('decimalText called with a value that was not validated as a decimal');
  return decimal.isZero() ? '0' : decimal.toFixed();
}

/** Why a value breaks the rule or the field's limits (a message without the field name), or undefined when it keeps both. */
export function decimalProblem(value: unknown, limits: DecimalLimits): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && parseDecimal(value) === undefined) {
    return `has more than ${MAX_JSON_NUMBER_DIGITS} significant digits, which a JSON number cannot carry exactly; send it as a decimal string`;
  }
  const decimal = parseDecimal(value);
  if (!decimal) return 'must be a number or a decimal string in plain notation such as "12.50" (no exponent, no spaces)';
  if (decimal.decimalPlaces() > limits.maxScale) return `must have at most ${limits.maxScale} decimal places`;
  if (decimal.abs().gte(new Decimal(10).pow(limits.maxIntegerDigits))) return `must have at most ${limits.maxIntegerDigits} digits before the decimal point`;
  return undefined;
}
