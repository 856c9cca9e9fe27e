export * from './logger';
export * from './health.module';
