export * from './etag';
export * from './if-match.decorator';
