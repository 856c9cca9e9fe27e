import { registerDecorator } from 'class-validator';
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

/** Lower bound of a decimal (inclusive unless `exclusive`); values that are not decimals are left to IsExactDecimal. */
export function DecimalMin(min: number, options: { exclusive?: boolean } = {}): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'min',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => {
          const decimal = parseDecimal(value);
          return !decimal || (options.exclusive ? decimal.gt(min) : decimal.gte(min));
        },
        defaultMessage: () => `${String(key)} must be ${options.exclusive ? 'greater than' : 'at least'} ${min}`,
      },
    });
}

/** Upper bound of a decimal (inclusive); values that are not decimals are left to IsExactDecimal. */
export function DecimalMax(max: number): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'max',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => {
          const decimal = parseDecimal(value);
          return !decimal || decimal.lte(max);
        },
        defaultMessage: () => `${String(key)} must be at most ${max}`,
      },
    });
}
