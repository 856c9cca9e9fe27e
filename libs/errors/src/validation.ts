import { type ArgumentMetadata, Injectable, type PipeTransform, type Type, ValidationPipe, type ValidationError } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { type ValidatorOptions, validateSync } from 'class-validator';
import { ValidationFailedError, type FieldProblem } from './api-error';
import { DETAIL_CODES, type DetailCode } from './fault-codes';
import { firstWideObject, MAX_OBJECT_PROPERTIES } from './wide-object';

/** class-validator constraint names mapped to the documented detail codes. */
const CONSTRAINT_CODES: Record<string, DetailCode> = {
  isDefined: DETAIL_CODES.required,
  isNotEmpty: DETAIL_CODES.required,
  whitelistValidation: DETAIL_CODES.unknownProperty,
  maxLength: DETAIL_CODES.tooLong,
  arrayMaxSize: DETAIL_CODES.tooLong,
  max: DETAIL_CODES.outOfRange,
  min: DETAIL_CODES.outOfRange,
  isPositive: DETAIL_CODES.outOfRange,
  isEmail: DETAIL_CODES.invalidFormat,
  isDateString: DETAIL_CODES.invalidFormat,
  isISO8601: DETAIL_CODES.invalidFormat,
  matches: DETAIL_CODES.invalidFormat,
};

/** Flattens class-validator's error tree into one problem per failed constraint, with dotted paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const error of errors) {
    const isIndex = /^\d+$/.test(error.property);
    const field = parent ? (isIndex ? `${parent}[${error.property}]` : `${parent}.${error.property}`) : error.property;
    for (const [constraint, message] of Object.entries(error.constraints ?? {})) {
      problems.push({ field, message, code: CONSTRAINT_CODES[constraint] ?? DETAIL_CODES.invalidValue });
    }
    if (error.children?.length) problems.push(...flattenValidationErrors(error.children, field));
  }
  return problems;
}

const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: false },
};

const COLLECTS_PROBLEMS = Symbol('erp:collects-body-problems');
const BODY_PROBLEMS = Symbol('erp:body-problems');

/**
 * Marks a body DTO whose shape problems the use case answers instead of the pipe. Some problems
 * only the use case can find (a customer that does not exist, a line id that is not on the order),
 * and some answers come before any 400 (404 for a missing resource, 412 for a stale If-Match):
 * for such a body the global pipe still does the whole shape validation, once, but hands the
 * problems over with the DTO (`bodyProblemsOf`) so one 400 can list every problem of the request.
 * One message per field (the first rule it breaks), so a missing field is "is required" only.
 */
export function CollectBodyProblems(): ClassDecorator {
  return (target) => Reflect.defineMetadata(COLLECTS_PROBLEMS, true, target);
}

/** The shape problems the global pipe found in a `@CollectBodyProblems()` body (none for a valid one). */
export function bodyProblemsOf(dto: object): FieldProblem[] {
  return [...((dto as { [BODY_PROBLEMS]?: FieldProblem[] })[BODY_PROBLEMS] ?? [])];
}

/**
 * The global validation pipe: unknown properties are refused (not silently dropped), payloads are
 * transformed into their DTO classes, and every problem is reported at once in one 400.
 */
@Injectable()
export class ErpValidationPipe extends ValidationPipe {
  constructor() {
    super({
      ...VALIDATOR_OPTIONS,
      transform: true,
      exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    if (metadata.type !== 'body' || !metatype || !Reflect.getMetadata(COLLECTS_PROBLEMS, metatype)) {
      return super.transform(value, metadata);
    }
    return collectProblems(metatype as Type<object>, value);
  }
}

function collectProblems(metatype: Type<object>, value: unknown): object {
  const { dto, problems } = validateBodyShape(metatype, value);
  Object.defineProperty(dto, BODY_PROBLEMS, { value: problems, enumerable: false });
  return dto;
}

/**
 * The shape validation the global pipe gives a `@CollectBodyProblems()` body, without throwing:
 * the DTO instance and its problems, one per field. Exported for unit tests of business rules,
 * which start from a DTO exactly as the use case receives it.
 */
export function validateBodyShape<T extends object>(metatype: Type<T>, value: unknown): { dto: T; problems: FieldProblem[] } {
  const dto = plainToInstance(metatype, (value ?? {}) as object);
  const errors = validateSync(dto, { ...VALIDATOR_OPTIONS, forbidUnknownValues: true, stopAtFirstError: true });
  return { dto, problems: flattenValidationErrors(errors) };
}

export function createValidationPipe(): ValidationPipe {
  return new ErpValidationPipe();
}

/**
 * Every JSON request body the API documents is an object. Nest's ValidationPipe turns a `null`
 * body into `{}` before validating it, so `PUT` with the body `null` was a silent empty update;
 * this pipe, first in line, answers a body that is JSON but not an object (null, an array, a
 * string, a number, a boolean) with 400. An absent body is left to the DTO's own rules. A body
 * with an object of more than MAX_OBJECT_PROPERTIES properties is answered 400 here too, before
 * the validation that would take seconds over it (wide-object.ts).
 */
@Injectable()
export class JsonObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || value === undefined) return value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationFailedError([{ field: 'body', message: 'The request body must be a JSON object', code: DETAIL_CODES.invalidValue }]);
    }
    const wide = firstWideObject(value);
    if (wide) {
      throw new ValidationFailedError([
        { field: wide.field, message: `has ${wide.properties} properties; an object may have at most ${MAX_OBJECT_PROPERTIES}`, code: DETAIL_CODES.tooLong },
      ]);
    }
    return value;
  }
}
