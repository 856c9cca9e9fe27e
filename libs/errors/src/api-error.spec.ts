import {
  ApiError,
  ForbiddenError,
  InvalidHeaderError,
  NotFoundError,
  PreconditionFailedError,
  PreconditionRequiredError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationFailedError,
} from './api-error';
import { DETAIL_CODES } from './fault-codes';

describe('ApiError', () => {
  it('takes its status from the fault table', () => {
    expect(new ApiError('Conflict', 'x').status).toBe(409);
    expect(new ApiError('Internal', 'x').status).toBe(500);
  });

  it('keeps the cause for the log without putting it in the message', () => {
    const cause = new Error('db detail');
    const error = new ApiError('Internal', 'An unexpected error occurred', { cause });
    expect(error.cause).toBe(cause);
    expect(error.message).toBe('An unexpected error occurred');
  });
});

describe('error subclasses', () => {
  it('ValidationFailedError lists every bad field in its message', () => {
    const error = new ValidationFailedError([
      { field: 'name', message: 'is required', code: DETAIL_CODES.required },
      { field: 'lines[3].quantity', message: 'must be positive', code: DETAIL_CODES.outOfRange },
    ]);
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      'The request has invalid fields: name: is required; lines[3].quantity: must be positive',
    );
    expect(error.fieldProblems).toHaveLength(2);
  });

  it('ValidationFailedError.of reports one field with the invalid-value code by default', () => {
    const error = ValidationFailedError.of('pageSize', 'must be a positive integer');
    expect(error.fieldProblems).toEqual([
      { field: 'pageSize', message: 'must be a positive integer', code: DETAIL_CODES.invalidValue },
    ]);
  });

  it('UnauthorizedError is a 401 that names the Bearer scheme', () => {
    const error = new UnauthorizedError();
    expect(error.status).toBe(401);
    expect(error.headers['www-authenticate']).toMatch(/^Bearer /);
  });

  it('InvalidHeaderError is a 400 that names the header as the bad field', () => {
    const error = new InvalidHeaderError('ipp-company-id', 'is required');
    expect(error.status).toBe(400);
    expect(error.fault).toBe('InvalidHeader');
    expect(error.message).toBe('Header ipp-company-id: is required');
    expect(error.fieldProblems[0].field).toBe('ipp-company-id');
  });

  it('maps each concurrency and access error to its status', () => {
    expect(new NotFoundError('Customer 1').status).toBe(404);
    expect(new NotFoundError('Customer 1').message).toBe('Customer 1 was not found');
    expect(new ForbiddenError('no').status).toBe(403);
    expect(new PreconditionFailedError().status).toBe(412);
    expect(new PreconditionRequiredError().status).toBe(428);
  });

  it('ServiceUnavailableError is a 503 with Retry-After', () => {
    const error = new ServiceUnavailableError(undefined, 7);
    expect(error.status).toBe(503);
    expect(error.headers['retry-after']).toBe('7');
  });
});
