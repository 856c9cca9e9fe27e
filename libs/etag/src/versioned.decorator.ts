import { applyDecorators, UseFilters, UseInterceptors } from '@nestjs/common';
import { ETagInterceptor } from './etag.interceptor';
import { NotModifiedFilter } from './not-modified.filter';

/**
 * Marks a handler of a versioned resource: it returns `versioned(body, version)` and
 * `ETagInterceptor` sets the ETag (and answers a matching If-None-Match with 304).
 */
export function Versioned(): MethodDecorator {
  return applyDecorators(UseInterceptors(ETagInterceptor), UseFilters(NotModifiedFilter));
}
