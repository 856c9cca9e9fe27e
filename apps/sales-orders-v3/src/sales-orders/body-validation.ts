import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DETAIL_CODES, type FieldProblem, flattenValidationErrors } from '@erp/errors';

/**
 * Validates a body against its DTO without throwing, so the use case can add the problems only it
 * can find (unknown line ids, unknown customers) and answer every problem in one 400. Same rules
 * as the global validation pipe: unknown properties are refused, not dropped. One message per
 * field (the first rule it breaks), so a missing field is "is required" and not three messages.
 */
export function validateBody<T extends object>(cls: new () => T, body: unknown): { dto: T; problems: FieldProblem[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { dto: new cls(), problems: [{ field: 'body', message: 'must be a JSON object', code: DETAIL_CODES.invalidValue }] };
  }
  const dto = plainToInstance(cls, body);
  const errors = validateSync(dto, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
  });
  return { dto, problems: flattenValidationErrors(errors) };
}

/** A problem with one field, for the checks the use cases add. */
export function problem(field: string, message: string, code: FieldProblem['code'] = DETAIL_CODES.invalidValue): FieldProblem {
  return { field, message, code };
}
