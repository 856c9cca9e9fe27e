import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsNotEmpty, IsString, MaxLength, registerDecorator, ValidateIf, ValidateNested } from 'class-validator';
import Decimal from 'decimal.js';
import { parseV3DateTime } from '@erp/paging';
import { NullMeansAbsent } from './published-fields';

/**
 * Shared validation rules of the sales-order bodies. Constraint names are chosen so the shared
 * mapping (`@erp/errors`) gives each failure its documented detail code: `min`/`max` are
 * 0005-OutOfRange, `isISO8601` is 0006-InvalidFormat, `isDefined` is 0001-NullNotAllowed.
 */

type Bag = Record<string | symbol, unknown>;

/** Optional, but not null when given (`null` answers 0001-NullNotAllowed). */
export function OptionalNotNull(): PropertyDecorator {
  return (target, key) => {
    ValidateIf((o: Bag) => o[key] !== undefined)(target, key);
    IsDefined({ message: `${String(key)} must not be null` })(target, key);
  };
}

/**
 * Optional, and `null` is read as absent ("not set" on create, "unchanged" on PATCH): clients
 * generated from the published document send null for every property the caller did not set.
 */
export function OptionalNullIsAbsent(): PropertyDecorator {
  return (target, key) => {
    NullMeansAbsent()(target, key);
    ValidateIf((o: Bag) => o[key] !== undefined)(target, key);
  };
}

/** Optional and clearable: absent leaves the value as is, `null` clears it. */
export function OptionalNullable(): PropertyDecorator {
  return (target, key) => ValidateIf((o: Bag) => o[key] !== undefined && o[key] !== null)(target, key);
}

/** Required: absent or null answers 0001-NullNotAllowed. */
export function Required(): PropertyDecorator {
  return (target, key) => IsDefined({ message: `${String(key)} is required` })(target, key);
}

/**
 * A string of at most `max` characters, well-formed Unicode; `nonEmpty` also refuses "" and blanks.
 * A lone surrogate (`"\ud800"` is valid JSON) has no UTF-8 form: PostgreSQL refuses it in jsonb
 * (billing, shipping, the view parts), which answered a 500, and would store it as U+FFFD elsewhere.
 */
export function Text(max: number, options: { nonEmpty?: boolean } = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [IsString(), MaxLength(max), WellFormed()];
  if (options.nonEmpty) decorators.push(IsNotEmpty(), NotBlank());
  return applyDecorators(...decorators);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function WellFormed(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isWellFormed',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !LONE_SURROGATE.test(value),
        defaultMessage: () => `${String(key)} must be well-formed Unicode text (it holds a lone surrogate)`,
      },
    });
}

function NotBlank(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isNotEmpty',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value.trim() !== '',
        defaultMessage: () => `${String(key)} must not be blank`,
      },
    });
}

/** An ISO 8601 timestamp (UTC unless it carries an offset) or a date. */
export function IsV3DateTime(): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isISO8601',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseV3DateTime(value) !== undefined,
        defaultMessage: () =>
          `${String(key)} must be an ISO 8601 date or timestamp, e.g. 2026-04-21 or 2026-04-21T10:15:00+02:00 (UTC unless an offset is given)`,
      },
    });
}

/**
 * JSON numbers are IEEE doubles on every common parser: beyond 15 significant digits the number a
 * client wrote may not be the number that arrives. Such values must be sent as decimal strings.
 */
export const MAX_JSON_NUMBER_DIGITS = 15;
const DECIMAL_STRING = /^[+-]?\d+(\.\d+)?$/;

/** The exact decimal a body value stands for, or undefined when it is not a decimal. */
export function toDecimal(value: unknown): Decimal | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? new Decimal(value) : undefined;
  if (typeof value === 'string' && DECIMAL_STRING.test(value.trim())) return new Decimal(value.trim());
  return undefined;
}

/** Canonical text of a validated decimal, for SQL (`$n::numeric`): exact, no exponent. */
export function decimalText(value: unknown): string {
  const decimal = toDecimal(value);
  if (!decimal) throw new Error('decimalText called with a value that was not validated as a decimal');
  return decimal.toFixed();
}

/**
 * An exact decimal given as a JSON number (at most 15 significant digits, so it arrives exactly as
 * written) or a decimal string, with at most `maxIntegerDigits` digits before and `maxScale` after
 * the point. Never converted to a float on the way to the database.
 */
export function IsExactDecimal(options: { maxIntegerDigits: number; maxScale: number }): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isExactDecimal',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => decimalProblem(value, options) === undefined,
        defaultMessage: (args) => `${String(key)} ${decimalProblem(args?.value, options) ?? 'is invalid'}`,
      },
    });
}

function decimalProblem(value: unknown, options: { maxIntegerDigits: number; maxScale: number }): string | undefined {
  const decimal = toDecimal(value);
  if (!decimal) return 'must be a number or a decimal string such as "12.50"';
  if (typeof value === 'number' && decimal.precision(true) > MAX_JSON_NUMBER_DIGITS) {
    return `has more than ${MAX_JSON_NUMBER_DIGITS} significant digits, which a JSON number cannot carry exactly; send it as a decimal string`;
  }
  if (decimal.decimalPlaces() > options.maxScale) return `must have at most ${options.maxScale} decimal places`;
  if (decimal.abs().trunc().toFixed().replace(/^0$/, '').length > options.maxIntegerDigits) {
    return `must have at most ${options.maxIntegerDigits} digits before the decimal point`;
  }
  return undefined;
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
          const decimal = toDecimal(value);
          return !decimal || (options.exclusive ? decimal.gt(min) : decimal.gte(min));
        },
        defaultMessage: () => `${String(key)} must be ${options.exclusive ? 'greater than' : 'at least'} ${min}`,
      },
    });
}

/** Upper bound of a decimal (inclusive). */
export function DecimalMax(max: number): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'max',
      target: target.constructor,
      propertyName: String(key),
      validator: {
        validate: (value: unknown) => {
          const decimal = toDecimal(value);
          return !decimal || decimal.lte(max);
        },
        defaultMessage: () => `${String(key)} must be at most ${max}`,
      },
    });
}

/** An optional array (absent, not null) of at most `max` entries, each validated as `type`. */
export function NestedArray(type: () => new () => object, max: number): PropertyDecorator {
  return applyDecorators(OptionalNotNull(), IsArray(), ArrayMaxSize(max), ValidateNested({ each: true }), Type(type));
}
