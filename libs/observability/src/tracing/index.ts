export * from './tracing-settings';
export * from './trace-context';
export * from './tracing';
export * from './http-tracing';
