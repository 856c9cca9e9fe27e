export {
  assertIsTestDatabase,
  createTestDatabase,
  type TestDatabase,
  testDatabaseName,
  testDatabaseServerUrl,
} from './postgres/test-database';
export { FULL_SCOPE, TestAuth, type TestHeadersRequest } from './auth/test-auth';
export { RecordingFetch } from './http/recording-fetch';
export {
  startTestService,
  type RunningTestService,
  type TestServiceOptions,
} from './http/start-test-service';
