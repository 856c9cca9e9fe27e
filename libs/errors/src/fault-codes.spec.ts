import { DETAIL_CODES, FAULTS, type FaultKey, problemTypeUri } from './fault-codes';

const faultKeys = Object.keys(FAULTS) as FaultKey[];

describe('fault-code table', () => {
  it('gives every fault its own code, so a code never means two things', () => {
    const codes = faultKeys.map((key) => FAULTS[key].code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('uses numeric strings as codes', () => {
    for (const key of faultKeys) expect(FAULTS[key].code).toMatch(/^\d{5}$/);
  });

  it('maps each fault to its documented HTTP status', () => {
    const statuses = Object.fromEntries(faultKeys.map((key) => [key, FAULTS[key].status]));
    expect(statuses).toEqual({
      ValidationFailed: 400,
      InvalidHeader: 400,
      MalformedBody: 400,
      DuplicateValue: 400,
      Unauthorized: 401,
      Forbidden: 403,
      NotFound: 404,
      RouteNotFound: 404,
      MethodNotAllowed: 405,
      NotAcceptable: 406,
      Conflict: 409,
      IdempotencyKeyInUse: 409,
      IdempotencyKeyReused: 422,
      PreconditionFailed: 412,
      PreconditionRequired: 428,
      PayloadTooLarge: 413,
      UnsupportedMediaType: 415,
      HeadersTooLarge: 431,
      RequestTimeout: 408,
      TooManyRequests: 429,
      ServiceUnavailable: 503,
      Internal: 500,
    });
  });

  it('gives every fault a v1 exception type and a problem title', () => {
    for (const key of faultKeys) {
      expect(FAULTS[key].exceptionType).toMatch(/^[A-Za-z]+Exception$/);
      expect(FAULTS[key].title.length).toBeGreaterThan(0);
    }
  });
});

describe('problemTypeUri', () => {
  it('is a stable URN in kebab case for each fault', () => {
    expect(problemTypeUri('ValidationFailed')).toBe('urn:erp:problem:validation-failed');
    expect(problemTypeUri('PreconditionRequired')).toBe('urn:erp:problem:precondition-required');
    expect(problemTypeUri('NotFound')).toBe('urn:erp:problem:not-found');
  });

  it('gives distinct faults distinct type URIs', () => {
    const uris = faultKeys.map(problemTypeUri);
    expect(new Set(uris).size).toBe(uris.length);
  });
});

describe('detail codes', () => {
  it('keep the documented code for a missing value', () => {
    expect(DETAIL_CODES.required).toBe('0001-NullNotAllowed');
  });

  it('are unique and numbered', () => {
    const codes = Object.values(DETAIL_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^\d{4}-[A-Za-z]+$/);
  });
});
