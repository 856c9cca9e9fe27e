export * from './logger';
export * from './service-logger';
export * from './health.module';
export * from './metrics/metrics-registry';
export * from './metrics/http-metrics';
export * from './metrics/metrics-server';
export * from './tracing';
