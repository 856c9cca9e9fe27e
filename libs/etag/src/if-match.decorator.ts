import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { parseIfMatch, requireIfMatch } from './etag';

/**
 * `@IfMatch()` gives the parsed If-Match header (or undefined when absent: the v1 family's optional
 * check); `@IfMatch({ required: true })` answers 428 when it is absent (the v3 rule).
 */
export const IfMatch = createParamDecorator((options: { required?: boolean } | undefined, context: ExecutionContext) => {
  const header = context.switchToHttp().getRequest<FastifyRequest>().headers['if-match'];
  return options?.required ? requireIfMatch(header) : parseIfMatch(header);
});
