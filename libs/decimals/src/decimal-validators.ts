import { registerDecorator } from 'class-validator';
import type Decimal from 'decimal.js';
import { decimalProblem, type DecimalLimits, parseDecimal } from './decimal-rule';

/**
 * class-validator decorators for decimal body fields. Constraint names are chosen so the shared
 * mapping of `@erp/errors` gives each failure its documented detail code: `isExactDecimal` is
 * 0002-InvalidValue, `min`/`max` are 0005-OutOfRange.
 */

/** A decimal under the one rule (`parseDecimal`) within the field's digits before and after the point. */
export function IsExactDecimal(limits: DecimalLimits): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isExactDecimal',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => decimalProblem(value, limits) === undefined,
        defaultMessage: (args) => `${String(key)} ${decimalProblem(args?.value, limits) ?? 'is invalid'}`,
      },
    });
}

/** A bound of a decimal, under the constraint name that maps to 0005-OutOfRange; values that are not decimals are left to IsExactDecimal. */
function decimalBound(name: 'min' | 'max', holds: (decimal: Decimal) => boolean, describe: string): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => {
          const decimal = parseDecimal(value);
          return !decimal || holds(decimal);
        },
        defaultMessage: () => `${String(key)} must be ${describe}`,
      },
    });
}

/** Lower bound of a decimal (inclusive unless `exclusive`). */
export function DecimalMin(min: number, options: { exclusive?: boolean } = {}): PropertyDecorator {
  return options.exclusive ? decimalBound('min', (d) => d.gt(min), `greater than ${min}`) : decimalBound('min', (d) => d.gte(min), `at least ${min}`);
}

/** Upper bound of a decimal (inclusive). */
export function DecimalMax(max: number): PropertyDecorator {
  return decimalBound('max', (d) => d.lte(max), `at most ${max}`);
}
