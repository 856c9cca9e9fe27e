import { DETAIL_CODES, type DetailCode, FAULTS, type FaultKey } from './fault-codes';

/** One problem with one input field; `field` is a dotted path such as `lines[3].quantity`. */
export interface FieldProblem {
  field: string;
  message: string;
  code: DetailCode;
}

export interface ApiErrorOptions {
  fieldProblems?: FieldProblem[];
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The only error type services throw for expected failures. It carries the fault kind, a message
 * that is safe to show to a client, and optionally the field problems of a validation failure.
 * The family filters turn it into the wire shape; nothing else decides status codes.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldProblems: FieldProblem[];
  readonly headers: Record<string, string>;

  constructor(
    readonly fault: FaultKey,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = FAULTS[fault].status;
    this.fieldProblems = options.fieldProblems ?? [];
    this.headers = options.headers ?? {};
  }
}

export class ValidationFailedError extends ApiError {
  constructor(fieldProblems: FieldProblem[], summary = 'The request has invalid fields') {
    const listed = fieldProblems.map((p) => `${p.field}: ${p.message}`).join('; ');
    super('ValidationFailed', listed ? `${summary}: ${listed}` : summary, { fieldProblems });
  }

  /** Shorthand for a single bad field (a query parameter, a header, a body field). */
  static of(field: string, message: string, code: DetailCode = DETAIL_CODES.invalidValue): ValidationFailedError {
    return new ValidationFailedError([{ field, message, code }]);
  }
}

export class NotFoundError extends ApiError {
  constructor(what: string) {
    super('NotFound', `${what} was not found`);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(message = 'A valid bearer token is required') {
    // RFC 6750: tell the client which scheme to use; no detail about why the token failed.
    super('Unauthorized', message, { headers: { 'www-authenticate': 'Bearer realm="erp", error="invalid_token"' } });
  }
}

export class ForbiddenError extends ApiError {
  constructor(message: string) {
    super('Forbidden', message);
  }
}

export class InvalidHeaderError extends ApiError {
  constructor(header: string, message: string) {
    super('InvalidHeader', `Header ${header}: ${message}`, {
      fieldProblems: [{ field: header, message, code: DETAIL_CODES.invalidValue }],
    });
  }
}

export class PreconditionFailedError extends ApiError {
  constructor(message = 'The If-Match ETag does not match the current version; read the record again') {
    super('PreconditionFailed', message);
  }
}

export class PreconditionRequiredError extends ApiError {
  constructor(message = 'This update requires an If-Match header with the ETag from an earlier read') {
    super('PreconditionRequired', message);
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(message = 'The service is temporarily unavailable; retry later', retryAfterSeconds = 5) {
    super('ServiceUnavailable', message, { headers: { 'retry-after': String(retryAfterSeconds) } });
  }
}
