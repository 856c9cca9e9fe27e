import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { formatEtag } from './etag';
import { ifNoneMatchMatches } from './if-none-match';
import { NotModified } from './not-modified.filter';
import { VersionedBody } from './versioned-body';

/**
 * Turns a `@Versioned()` handler's `VersionedBody` into the response: the `ETag` header from its
 * version (and `Location` when it has one), the body as it is. A GET (or HEAD) whose If-None-Match
 * matches is answered 304 with no body (`NotModifiedFilter`). Handlers never touch the reply for
 * ETags; the If-Match side stays with `@IfMatch()`, whose parsed value the handler passes to the
 * write, which answers 412/428.
 */
@Injectable()
export class ETagInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof VersionedBody)) {
          throw new TypeError(`${context.getClass().name}.${context.getHandler().name} is @Versioned() but did not return versioned(...)`);
        }
        const etag = formatEtag(result.version);
        if ((request.method === 'GET' || request.method === 'HEAD') && ifNoneMatchMatches(request.headers['if-none-match'], etag)) {
          throw new NotModified(etag);
        }
        reply.header('etag', etag);
        if (result.location !== undefined) reply.header('location', result.location);
        return result.body;
      }),
    );
  }
}
