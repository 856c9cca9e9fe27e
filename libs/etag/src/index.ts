export * from './etag';
export * from './if-match.decorator';
export * from './if-none-match';
export * from './versioned-body';
export * from './versioned.decorator';
export { ETagInterceptor } from './etag.interceptor';
export { NotModified, NotModifiedFilter } from './not-modified.filter';
