import { type ArgumentMetadata, Injectable, type PipeTransform, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidationFailedError, type FieldProblem } from './api-error';
import { DETAIL_CODES, type DetailCode } from './fault-codes';

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

/**
 * The global validation pipe: unknown properties are refused (not silently dropped), payloads are
 * transformed into their DTO classes, and every problem is reported at once in one 400.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}

/**
 * Every JSON request body the API documents is an object. Nest's ValidationPipe turns a `null`
 * body into `{}` before validating it, so `PUT` with the body `null` was a silent empty update;
 * this pipe, first in line, answers a body that is JSON but not an object (null, an array, a
 * string, a number, a boolean) with 400. An absent body is left to the DTO's own rules.
 */
@Injectable()
export class JsonObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body' || value === undefined) return value;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new ValidationFailedError([{ field: 'body', message: 'The request body must be a JSON object', code: DETAIL_CODES.invalidValue }]);
    }
    return value;
  }
}
