export * from './config';
export * from './create-service-app';
export * from './v1-value-unwrap.interceptor';
export * from './run-service';
export { type MigrateCommand, migrateCommandOf, type MigrateOptions, runMigrate } from './run-migrate';
export { connectHybridMicroservices, HYBRID_MICROSERVICE, type HybridMicroservice } from './hybrid-microservices';
export { UrlList } from './url-list';
export { type DrainLimits, HttpDrain, httpDrainOf } from './http-drain';
