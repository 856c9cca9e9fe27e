import {
  ApiError,
  InvalidHeaderError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationFailedError,
} from './api-error';
import { DETAIL_CODES, FAULTS, type FaultKey } from './fault-codes';
import { errorFamilyForPath, renderError, renderProblem, renderV1Error } from './render';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('renderV1Error', () => {
  it('has exactly the five v1 keys', () => {
    const { body } = renderV1Error(new ApiError('NotFound', 'Customer 10001 was not found'));
    expect(Object.keys(body).sort()).toEqual(
      [
        'ExceptionDetails',
        'ExceptionFaultCode',
        'ExceptionMessage',
        'ExceptionMessageID',
        'ExceptionType',
      ].sort(),
    );
  });

  it('carries the message, the exception type and an empty details string', () => {
    const { status, body } = renderV1Error(new ApiError('NotFound', 'Customer 10001 was not found'));
    expect(status).toBe(404);
    expect(body.ExceptionType).toBe('NotFoundException');
    expect(body.ExceptionMessage).toBe('Customer 10001 was not found');
    expect(body.ExceptionDetails).toBe('');
  });

  it('builds ExceptionMessageID as <fault code>_<uuid>, new for every error', () => {
    const first = renderV1Error(new ApiError('ValidationFailed', 'x')).body;
    const second = renderV1Error(new ApiError('ValidationFailed', 'x')).body;
    expect(first.ExceptionMessageID).toMatch(new RegExp(`^10001_${UUID}$`));
    expect(first.ExceptionMessageID).not.toBe(second.ExceptionMessageID);
  });

  it.each(Object.keys(FAULTS) as FaultKey[])('uses the table code and status for %s', (fault) => {
    const { status, body } = renderV1Error(new ApiError(fault, 'x'));
    expect(status).toBe(FAULTS[fault].status);
    expect(body.ExceptionFaultCode).toBe(FAULTS[fault].code);
    expect(body.ExceptionType).toBe(FAULTS[fault].exceptionType);
    expect(String(body.ExceptionMessageID).startsWith(`${FAULTS[fault].code}_`)).toBe(true);
  });

  it('lists every bad field in the message of a validation failure', () => {
    const { body } = renderV1Error(
      new ValidationFailedError([
        { field: 'name', message: 'is required', code: DETAIL_CODES.required },
        { field: 'status', message: 'must be Active or OnHold', code: DETAIL_CODES.invalidValue },
      ]),
    );
    expect(body.ExceptionMessage).toContain('name: is required');
    expect(body.ExceptionMessage).toContain('status: must be Active or OnHold');
  });

  it('answers JSON and keeps the error headers', () => {
    const { headers } = renderV1Error(new UnauthorizedError());
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect(headers['www-authenticate']).toMatch(/^Bearer/);
  });
});

describe('renderProblem', () => {
  it('has type, title, status, detail and instance and nothing else for a plain error', () => {
    const { status, body } = renderProblem(
      new ApiError('PreconditionFailed', 'stale'),
      '/api/v3/SalesOrders/SO/000123',
    );
    expect(status).toBe(412);
    expect(body).toEqual({
      type: 'urn:erp:problem:precondition-failed',
      title: 'Precondition failed',
      status: 412,
      detail: 'stale',
      instance: '/api/v3/SalesOrders/SO/000123',
    });
  });

  it('answers application/problem+json and keeps the error headers', () => {
    const { headers } = renderProblem(
      new ServiceUnavailableError(undefined, 5),
      '/api/webhooks/subscriptions',
    );
    expect(headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(headers['retry-after']).toBe('5');
  });

  it('adds an errors map grouping messages by field path for field problems', () => {
    const { body } = renderProblem(
      new ValidationFailedError([
        { field: 'lines[3].quantity', message: 'must be positive', code: DETAIL_CODES.outOfRange },
        { field: 'lines[3].quantity', message: 'must be an integer', code: DETAIL_CODES.invalidValue },
        { field: 'customer.id', message: 'is required', code: DETAIL_CODES.required },
      ]),
      '/api/v3/SalesOrders',
    );
    expect(body.errors).toEqual({
      'lines[3].quantity': ['must be positive', 'must be an integer'],
      'customer.id': ['is required'],
    });
  });

  it('groups field names that are Object.prototype keys (query keys __proto__, constructor) as plain keys', () => {
    const { body } = renderProblem(
      new ValidationFailedError([
        { field: 'constructor', message: 'is not a parameter of this endpoint', code: DETAIL_CODES.unknownProperty },
        { field: '__proto__', message: 'is not a parameter of this endpoint', code: DETAIL_CODES.unknownProperty },
      ]),
      '/api/v3/SalesOrders',
    );
    const json = JSON.parse(JSON.stringify(body)) as { errors: Record<string, string[]> };
    expect(Object.entries(json.errors)).toEqual([
      ['constructor', ['is not a parameter of this endpoint']],
      ['__proto__', ['is not a parameter of this endpoint']],
    ]);
  });

  it('adds details with code, message and parameters.property for each field problem', () => {
    const { body } = renderProblem(
      new ValidationFailedError([
        { field: 'customer.id', message: 'is required', code: DETAIL_CODES.required },
      ]),
      '/api/v3/SalesOrders',
    );
    expect(body.details).toEqual([
      { code: '0001-NullNotAllowed', message: 'is required', parameters: { property: 'customer.id' } },
    ]);
  });

  it('reports a bad header as a field problem too', () => {
    const { status, body } = renderProblem(
      new InvalidHeaderError('ipp-company-id', 'is required'),
      '/api/v3/SalesOrders',
    );
    expect(status).toBe(400);
    expect(body.errors).toEqual({ 'ipp-company-id': ['is required'] });
  });
});

describe('errorFamilyForPath', () => {
  it.each(['/v1', '/v1/', '/v1/customer', '/V1/customer/10001', '/v1?pageSize=1'])(
    'answers %s in the v1 shape',
    (path) => {
      expect(errorFamilyForPath(path)).toBe('v1');
    },
  );

  it.each([
    '/api/v3/SalesOrders',
    '/api/webhooks/subscriptions',
    '/v10/customer',
    '/v1customer',
    '/',
    '/health/ready',
  ])('answers %s in problem+json', (path) => {
    expect(errorFamilyForPath(path)).toBe('problem');
  });
});

describe('renderError', () => {
  it('renders the chosen family', () => {
    const error = new ApiError('NotFound', 'gone');
    expect(renderError(error, 'v1', '/v1/customer/1').body).toHaveProperty('ExceptionFaultCode', '10201');
    expect(renderError(error, 'problem', '/api/v3/SalesOrders/SO/1').body).toHaveProperty(
      'instance',
      '/api/v3/SalesOrders/SO/1',
    );
  });
});
