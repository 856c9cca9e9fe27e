export * from './fault-codes';
export * from './api-error';
export * from './to-api-error';
export * from './render';
export * from './api-exception.filter';
export * from './validation';
export * from './transient-connection-error';
export * from './unknown-parameters';
