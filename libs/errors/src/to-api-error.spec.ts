import {
  BadRequestException,
  HttpException,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { errorCodes } from 'fastify';
import { DatabaseError } from 'pg';
import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { ApiError, NotFoundError } from './api-error';
import { toApiError } from './to-api-error';

function pgError(message: string, code: string): DatabaseError {
  const error = new DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

describe('toApiError', () => {
  describe('expected failures', () => {
    it('passes an ApiError through unchanged', () => {
      const error = new NotFoundError('Customer 10001');
      expect(toApiError(error)).toBe(error);
    });
  });

  describe('Nest HttpExceptions', () => {
    it('maps 404 to RouteNotFound without echoing the path', () => {
      const error = toApiError(new NotFoundException('Cannot GET /v1/secret-internal-route'));
      expect(error.status).toBe(404);
      expect(error.fault).toBe('RouteNotFound');
      expect(error.message).not.toContain('secret-internal-route');
    });

    it('maps 405 to MethodNotAllowed', () => {
      const error = toApiError(new MethodNotAllowedException());
      expect(error.status).toBe(405);
      expect(error.fault).toBe('MethodNotAllowed');
    });

    it('maps 413 to PayloadTooLarge', () => {
      const error = toApiError(new PayloadTooLargeException());
      expect(error.status).toBe(413);
      expect(error.fault).toBe('PayloadTooLarge');
    });

    it('maps 415 to UnsupportedMediaType', () => {
      const error = toApiError(new UnsupportedMediaTypeException());
      expect(error.status).toBe(415);
      expect(error.fault).toBe('UnsupportedMediaType');
    });

    it('maps a pipe’s 400 to ValidationFailed with the first line of the framework message only', () => {
      const error = toApiError(
        new BadRequestException(
          `Validation failed (numeric string is expected)\n    at ParseIntPipe\n${'x'.repeat(500)}`,
        ),
      );
      expect(error.status).toBe(400);
      expect(error.fault).toBe('ValidationFailed');
      expect(error.message).toBe('Validation failed (numeric string is expected)');
    });

    it.each([
      [401, 'Unauthorized'],
      [403, 'Forbidden'],
      [409, 'Conflict'],
      [412, 'PreconditionFailed'],
      [428, 'PreconditionRequired'],
    ])('maps a Nest HttpException %i to %s, not to a 500', (status, fault) => {
      const error = toApiError(new HttpException('denied', status));
      expect(error.status).toBe(status);
      expect(error.fault).toBe(fault);
    });

    it('answers a Nest 503 with Retry-After', () => {
      const error = toApiError(new HttpException('down', 503));
      expect(error.status).toBe(503);
      expect(error.headers['retry-after']).toBeDefined();
    });

    it('keeps the original exception as the cause for the log', () => {
      const original = new NotFoundException();
      expect(toApiError(original).cause).toBe(original);
    });

    it('maps a status the API does not answer with to an internal error', () => {
      const error = toApiError(new HttpException('I am a teapot', 418));
      expect(error.status).toBe(500);
      expect(error.fault).toBe('Internal');
      expect(error.message).not.toContain('teapot');
    });
  });

  describe('Fastify errors that carry statusCode', () => {
    it('maps an unsupported content type to 415', () => {
      const error = toApiError(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE('text/plain'));
      expect(error.status).toBe(415);
      expect(error.fault).toBe('UnsupportedMediaType');
    });

    it('maps a body over the limit to 413', () => {
      const error = toApiError(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      expect(error.status).toBe(413);
      expect(error.fault).toBe('PayloadTooLarge');
    });

    it('maps invalid JSON to a 400 MalformedBody that says why', () => {
      const error = toApiError(new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY());
      expect(error.status).toBe(400);
      expect(error.fault).toBe('MalformedBody');
      expect(error.message).toMatch(/^The request body could not be read: Body is not valid JSON/);
    });

    it('maps a status-carrying error without a message instead of failing', () => {
      const error = toApiError({ statusCode: 400 });
      expect(error.status).toBe(400);
      expect(error.fault).toBe('MalformedBody');
    });

    it('treats a 500 from the framework as internal', () => {
      expect(toApiError({ statusCode: 500, message: 'boom' }).status).toBe(500);
    });
  });

  describe('an unreachable database', () => {
    it.each([
      [
        'a refused connection',
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ],
      [
        'a refused connection on every address',
        Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' }),
      ],
      ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
      ['a server shutting down', pgError('terminating connection due to administrator command', '57P01')],
      ['too many connections', pgError('sorry, too many clients already', '53300')],
      ['a connection exception', pgError('connection failure', '08006')],
      [
        'a TypeORM query that failed on a lost connection',
        new QueryFailedError('SELECT 1', [], pgError('x', '57P03')),
      ],
      ['a driver error only on driverError', { message: 'query failed', driverError: { code: '08001' } }],
      ['a terminated connection', new Error('Connection terminated unexpectedly')],
      ['a pool timeout', new Error('timeout exceeded when trying to connect')],
      ['a pg client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
      ['a transaction whose connection was lost (runner)', new QueryRunnerAlreadyReleasedError()],
      ['a transaction whose connection was lost (manager)', new QueryRunnerProviderAlreadyReleasedError()],
    ])('answers 503 with Retry-After for %s', (_label, thrown) => {
      const error = toApiError(thrown);
      expect(error.status).toBe(503);
      expect(error.fault).toBe('ServiceUnavailable');
      expect(error.headers['retry-after']).toBe('5');
    });

    it('keeps other database errors internal (500), not 503', () => {
      const error = toApiError(
        new QueryFailedError(
          'SELECT * FROM customers',
          [],
          pgError('relation "customers" does not exist', '42P01'),
        ),
      );
      expect(error.status).toBe(500);
    });
  });

  describe('anything else', () => {
    it('is a 500 whose message reveals nothing of the original', () => {
      const original = new Error(
        'duplicate key value violates unique constraint "customers_pkey" on table secret_schema.customers',
      );
      const error = toApiError(original);
      expect(error).toBeInstanceOf(ApiError);
      expect(error.status).toBe(500);
      expect(error.fault).toBe('Internal');
      expect(error.message).toBe('An unexpected error occurred');
      expect(error.cause).toBe(original);
    });

    it.each([
      ['a string', 'boom'],
      ['undefined', undefined],
      ['null', null],
      ['a number', 42],
    ])('turns a thrown %s into a 500', (_label, thrown) => {
      const error = toApiError(thrown);
      expect(error.status).toBe(500);
      expect(error.message).toBe('An unexpected error occurred');
    });
  });
});
