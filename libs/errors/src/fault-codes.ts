/**
 * The one table of error kinds. Every error the API answers with is one of these; both wire
 * families render from it (v1: ExceptionFaultCode/ExceptionType, problem+json: type/title).
 * Codes are strings on the wire and never reused for another meaning.
 */
export const FAULTS = {
  ValidationFailed: { status: 400, code: '10001', exceptionType: 'ValidationException', title: 'Validation failed' },
  InvalidHeader: { status: 400, code: '10002', exceptionType: 'ValidationException', title: 'Invalid request header' },
  MalformedBody: { status: 400, code: '10003', exceptionType: 'ValidationException', title: 'Malformed request body' },
  DuplicateValue: { status: 400, code: '10004', exceptionType: 'ValidationException', title: 'Duplicate value' },
  Unauthorized: { status: 401, code: '10101', exceptionType: 'AuthenticationException', title: 'Unauthorized' },
  Forbidden: { status: 403, code: '10102', exceptionType: 'AuthorizationException', title: 'Forbidden' },
  NotFound: { status: 404, code: '10201', exceptionType: 'NotFoundException', title: 'Not found' },
  RouteNotFound: { status: 404, code: '10202', exceptionType: 'NotFoundException', title: 'Resource not found' },
  MethodNotAllowed: { status: 405, code: '10203', exceptionType: 'NotFoundException', title: 'Method not allowed' },
  NotAcceptable: { status: 406, code: '10204', exceptionType: 'ValidationException', title: 'Not acceptable' },
  Conflict: { status: 409, code: '10303', exceptionType: 'ConcurrencyException', title: 'Conflict' },
  // Idempotency-Key (libs/idempotency; draft-ietf-httpapi-idempotency-key-header-07): the first
  // request with the key is still running, or the key came with another request.
  IdempotencyKeyInUse: { status: 409, code: '10304', exceptionType: 'ConcurrencyException', title: 'Idempotency key in use' },
  IdempotencyKeyReused: { status: 422, code: '10005', exceptionType: 'ValidationException', title: 'Idempotency key reused' },
  PreconditionFailed: { status: 412, code: '10301', exceptionType: 'ConcurrencyException', title: 'Precondition failed' },
  PreconditionRequired: { status: 428, code: '10302', exceptionType: 'ConcurrencyException', title: 'Precondition required' },
  PayloadTooLarge: { status: 413, code: '10401', exceptionType: 'ValidationException', title: 'Payload too large' },
  UnsupportedMediaType: { status: 415, code: '10402', exceptionType: 'ValidationException', title: 'Unsupported media type' },
  HeadersTooLarge: { status: 431, code: '10403', exceptionType: 'ValidationException', title: 'Request header fields too large' },
  RequestTimeout: { status: 408, code: '10404', exceptionType: 'ValidationException', title: 'Request timeout' },
  TooManyRequests: { status: 429, code: '10501', exceptionType: 'RateLimitException', title: 'Too many requests' },
  ServiceUnavailable: { status: 503, code: '10601', exceptionType: 'ServiceUnavailableException', title: 'Service unavailable' },
  Internal: { status: 500, code: '19999', exceptionType: 'InternalServerException', title: 'Internal server error' },
} as const;

export type FaultKey = keyof typeof FAULTS;

/** Problem `type` URI for a fault: a stable, documented identifier (see the API reference). */
export function problemTypeUri(key: FaultKey): string {
  return `urn:erp:problem:${key.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}`;
}

/** Codes for `details[].code` in problem+json validation bodies, keyed by what went wrong. */
export const DETAIL_CODES = {
  required: '0001-NullNotAllowed',
  invalidValue: '0002-InvalidValue',
  unknownProperty: '0003-UnknownProperty',
  tooLong: '0004-TooLong',
  outOfRange: '0005-OutOfRange',
  invalidFormat: '0006-InvalidFormat',
  unknownReference: '0007-UnknownReference',
  inactiveReference: '0008-InactiveReference',
} as const;

export type DetailCode = (typeof DETAIL_CODES)[keyof typeof DETAIL_CODES];
