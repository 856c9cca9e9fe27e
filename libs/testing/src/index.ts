export {
  assertIsTestDatabase,
  createTestDatabase,
  type TestDatabase,
  testDatabaseName,
  testDatabaseServerUrl,
} from './postgres/test-database';
export { FULL_SCOPE, TestAuth, type TestHeadersRequest } from './auth/test-auth';
export { LoggedErrors, type LoggedError } from './http/logged-errors';
export { recordFields, schemaFields, shapeDisagreements, type ShapeSide, validatedFields } from './openapi/record-shape';
export { RecordingFetch, type RecordedStatus } from './http/recording-fetch';
export {
  startTestService,
  type RunningTestService,
  type TestServiceOptions,
} from './http/start-test-service';
export { describeDecimalRule, type DecimalRuleOptions } from './decimals/decimal-rule-suite';
export { describeV1PagingRules, type V1PagingFixture, type V1PagingRulesOptions } from './v1/v1-paging-rules';
export { describeTenantWallRules, type TenantWallRulesOptions, whileTenantViewAdmitsNothing } from './postgres/tenant-wall-rules';
export { testKafkaBrokers, testTopicPrefix, usingExternalKafka } from './kafka/test-kafka';
export { type ReceivedEvent, type ReceivedMessage, TopicReader } from './kafka/topic-reader';
export { startTestS3Server, type TestS3Server } from './s3/test-s3-server';
export { TestEventProducer, type TestEnvelope } from './kafka/test-event-producer';
export { startServiceTestApp, type ServiceTestApp, type ServiceTestAppOptions } from './http/start-service-test-app';
export { PATIENCE_MS, waitFor, waitUntil } from './wait/wait-for';
export { chromiumExecutablePath, HEADLESS_CHROMIUM_ARGS } from './browser/chromium';
export { publishedResponseValidator, publishedSchemaValidator, type PublishedDocumentPart } from './openapi/published-schemas';
export {
  expectPageMatchesOracle,
  expectWalkMatchesOracle,
  type OracleList,
  type ReadPage,
  timeBucketStart,
  type V1FilterListOptions,
  v1FilterOracleList,
  v1OracleList,
  type V1ListOptions,
} from './paging/paging-contract';
export { findPgBouncer, PGBOUNCER_MISSING, type PgBouncer, type PgBouncerOptions, startPgBouncer } from './postgres/pgbouncer';
export {
  bucketFunctionDisagreements,
  type BucketSchema,
  type CellBucket,
  type CountedCells,
  type EdgeRows,
  idsAroundBucketStarts,
  instantsAroundBucketStarts,
  planOf,
  rowsAtEdges,
} from './postgres/bucket-functions';
export { type InternalApiStub, type ReceivedInternalCall, startInternalApiStub } from './internal-api/internal-api-stub';
export { describeInternalRouteRules, type InternalRouteRulesOptions } from './internal-api/internal-route-rules';
export { declaredEventHandlers, type EventHandlerBinding, eventHandlersIn } from './events/declared-event-handlers';
export { describeIdempotentWriteRules, type IdempotentWriteFamily, type KeyedWriteRequest } from './idempotency/idempotent-write-rules';
