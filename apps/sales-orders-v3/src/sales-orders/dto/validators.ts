import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsNotEmpty, IsString, MaxLength, registerDecorator, ValidateIf, ValidateNested } from 'class-validator';
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

/** An optional array (absent, not null) of at most `max` entries, each validated as `type`. */
export function NestedArray(type: () => new () => object, max: number): PropertyDecorator {
  return applyDecorators(OptionalNotNull(), IsArray(), ArrayMaxSize(max), ValidateNested({ each: true }), Type(type));
}
