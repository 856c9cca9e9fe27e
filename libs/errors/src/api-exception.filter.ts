import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AnswerReplay } from './answer-replay';
import { toApiError } from './to-api-error';
import { type ErrorFamily, errorFamilyForPath, renderError } from './render';

/**
 * The one place where a service's errors become HTTP responses. Register it globally; the family
 * is fixed per service (a v1 service answers in the v1 shape, v3 and webhooks in problem+json) or
 * chosen by path where one process serves both.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(private readonly family: ErrorFamily | 'by-path' = 'by-path') {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (exception instanceof AnswerReplay) {
      if (reply.sent) return;
      reply.status(exception.status).headers(exception.headers);
      if (request.id) reply.header('x-request-id', String(request.id));
      reply.send(exception.body);
      return;
    }
    const error = toApiError(exception);
    const path = (request.url ?? '/').split('?')[0];
    const family = this.family === 'by-path' ? errorFamilyForPath(path) : this.family;

    if (error.status >= 500) {
      request.log?.error({ err: exception }, 'request failed');
    } else {
      request.log?.info({ fault: error.fault, status: error.status }, error.message);
    }
    if (reply.sent) return;
    const rendered = renderError(error, family, path);
    reply.status(rendered.status).headers(rendered.headers);
    if (request.id) reply.header('x-request-id', String(request.id));
    reply.send(rendered.body);
  }
}
