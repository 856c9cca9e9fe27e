import { HttpException } from '@nestjs/common';
import { ApiError, ServiceUnavailableError } from './api-error';
import type { FaultKey } from './fault-codes';
import { isTransientConnectionError } from './transient-connection-error';

/**
 * Statuses of Nest's own HttpExceptions (guards, pipes, routing) and the fault they are. A 400
 * here comes from a pipe checking a parameter, so it is a validation failure, not a bad body.
 */
const HTTP_EXCEPTION_FAULTS: Record<number, FaultKey> = {
  400: 'ValidationFailed',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'RouteNotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  412: 'PreconditionFailed',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  428: 'PreconditionRequired',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

/** HTTP statuses raised by Fastify itself (routing, body parsing) and the fault they are. */
const FRAMEWORK_STATUS_FAULTS: Record<number, FaultKey> = {
  400: 'MalformedBody',
  404: 'RouteNotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'TooManyRequests',
  503: 'ServiceUnavailable',
};

/**
 * Turns anything thrown while handling a request into an ApiError. Expected failures already are
 * ApiErrors; framework errors (Nest HttpException, Fastify parser errors) are mapped by status;
 * an unreachable database becomes 503; everything else is an internal error whose details stay
 * in the log, never on the wire.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HttpException) {
    const fault = HTTP_EXCEPTION_FAULTS[err.getStatus()];
    if (fault === 'ServiceUnavailable') return new ServiceUnavailableError();
    if (fault) return new ApiError(fault, safeFrameworkMessage(fault, err.message), { cause: err });
    return new ApiError('Internal', 'An unexpected error occurred', { cause: err });
  }
  if (err && typeof err === 'object') {
    const status = (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && FRAMEWORK_STATUS_FAULTS[status]) {
      const fault = FRAMEWORK_STATUS_FAULTS[status];
      if (fault === 'ServiceUnavailable') return new ServiceUnavailableError();
      const message = (err as { message?: unknown }).message;
      return new ApiError(fault, safeFrameworkMessage(fault, typeof message === 'string' ? message : ''), { cause: err });
    }
    if (isTransientConnectionError(err)) return new ServiceUnavailableError(undefined, 5);
  }
  return new ApiError('Internal', 'An unexpected error occurred', { cause: err });
}

/** Framework messages name no internals, but keep them short and without stack-like content. */
function safeFrameworkMessage(fault: FaultKey, message: string): string {
  switch (fault) {
    case 'MalformedBody':
      return `The request body could not be read: ${message.split('\n')[0].slice(0, 200)}`;
    case 'RouteNotFound':
      return 'No resource exists at this path';
    case 'MethodNotAllowed':
      return 'This method is not allowed on this resource';
    case 'PayloadTooLarge':
      return 'The request body is larger than this endpoint accepts';
    case 'UnsupportedMediaType':
      return 'The request content type is not supported by this endpoint';
    default:
      return message.split('\n')[0].slice(0, 200);
  }
}
