export * from './schemas';
export * from './decorators';
export * from './build-document';
export * from './openapi.module';
export * from './merge';
export * from './content-types';
export * from './idempotency-keys';
