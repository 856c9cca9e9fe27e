import Decimal from 'decimal.js';
import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Exact decimal arithmetic for money and quantities: never binary floating point. */
const ExactDecimal = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -60, toExpPos: 60 });

export interface DecimalLimits {
  /** Digits allowed after the decimal point. */
  scale: number;
  /** Digits allowed before it. */
  integerDigits: number;
}

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A double carries 15 significant decimal digits exactly; a JSON number with more may have changed. */
export const MAX_NUMBER_DIGITS = 15;

/**
 * Reads a decimal given as a JSON number or a string ("12.50"); undefined when it is neither, not
 * finite, or a JSON number with more than 15 significant digits (send those as strings). A JSON
 * number is taken by its shortest round-trip text (0.1 is 0.1, not 0.1000000000000000055...), so
 * what the client wrote is what is stored.
 */
export function parseDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const decimal = new ExactDecimal(String(value));
    return decimal.precision() > MAX_NUMBER_DIGITS ? undefined : decimal;
  }
  if (typeof value === 'string' && DECIMAL_TEXT.test(value.trim())) return new ExactDecimal(value.trim());
  return undefined;
}

export function fitsLimits(value: Decimal, limits: DecimalLimits): boolean {
  if (value.decimalPlaces() > limits.scale) return false;
  return value.abs().lt(new ExactDecimal(10).pow(limits.integerDigits));
}

/** The text passed to a `numeric` column: plain notation, no exponent. */
export function decimalText(value: unknown): string {
  const parsed = parseDecimal(value);
  if (!parsed) throw new Error(`Not a decimal: ${String(value)}`);
  return parsed.toFixed();
}

/** A decimal field: a JSON number or numeric string within the column's precision and scale. */
export function IsDecimalValue(limits: DecimalLimits, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDecimalValue',
      validator: {
        validate: (value: unknown) => {
          const parsed = parseDecimal(value);
          return parsed !== undefined && fitsLimits(parsed, limits);
        },
        defaultMessage: (args) =>
          `${args?.property} must be a decimal number with at most ${limits.integerDigits} digits before ` +
          `and ${limits.scale} after the decimal point (a JSON number of at most ${MAX_NUMBER_DIGITS} ` +
          'significant digits, or a string)',
      },
    },
    options,
  );
}
