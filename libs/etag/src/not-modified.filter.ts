import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

/** A conditional GET whose representation the client already has (raised by `ETagInterceptor`). */
export class NotModified extends Error {
  constructor(readonly etag: string) {
    super('Not Modified');
  }
}

/**
 * Answers `NotModified` with 304, the ETag and no body. A filter because Nest sets the handler's
 * status (200) after its interceptors have run, so an interceptor cannot change it; scoped to the
 * `@Versioned()` handler, it takes the exception before the API family's error filter would.
 */
@Catch(NotModified)
export class NotModifiedFilter implements ExceptionFilter<NotModified> {
  catch(exception: NotModified, host: ArgumentsHost): void {
    void host.switchToHttp().getResponse<FastifyReply>().status(304).header('etag', exception.etag).send();
  }
}
