import type { DynamicModule } from '@nestjs/common';
import { Client } from 'pg';
import type { ServiceConfig } from '@erp/bootstrap';
import { type DataSourceConfig, ensureRuntimeLogin, migrateDatabase } from '@erp/database';
import type { ErrorFamily } from '@erp/errors';
import { createKafka, deadLetterTopicOf, ensureTopics, prefixedTopic } from '@erp/messaging';
import { TestAuth } from '../auth/test-auth';
import { testKafkaBrokers, testTopicPrefix } from '../kafka/test-kafka';
import { createTestDatabase, testDatabaseServerUrl, type TestDatabase } from '../postgres/test-database';
import { type InternalApiStub, startInternalApiStub } from '../internal-api/internal-api-stub';
import { RecordingFetch } from './recording-fetch';
import { type RunningTestService, startTestService } from './start-test-service';

export interface ServiceTestAppOptions<C extends ServiceConfig> {
  /** The service's name, as in its main.ts. */
  name: string;
  config: new () => C;
  module: (config: C) => DynamicModule;
  errorFamily: ErrorFamily | 'by-path';
  entities: DataSourceConfig['entities'];
  migrations: DataSourceConfig['migrations'];
  /** Names this instance's database and Kafka topic prefix, so test files never share either. */
  instance: string;
  /** Topics the service consumes (unprefixed): created with their dead-letter topics before it starts. */
  consumedTopics?: string[];
  /**
   * The internal APIs the service calls, by the variable that names each and the service it is
   * (`{ CUSTOMERS_URL: 'customers-v1' }`): each is a stub (`startInternalApiStub`) the test puts
   * the called service's records into.
   */
  internalApis?: Record<string, string>;
  env?: Record<string, string>;
}

/** A service under test on its own fresh, migrated database and Kafka topic prefix. */
export interface ServiceTestApp {
  service: RunningTestService;
  database: TestDatabase;
  /**
   * The service's DATABASE_URL: its database as the runtime login, which owns nothing and reaches
   * rows only as the request or service role (docs/platform-teams.md, "Database logins").
   * `database.url` is the owner's (the migrations', and `sql`'s).
   */
  runtimeUrl: string;
  /** A direct connection to the service's database as its owner, to arrange data and to check what changed. */
  sql: Client;
  auth: TestAuth;
  http: RecordingFetch;
  topicPrefix: string;
  /** The stubs of the internal APIs the service calls, by called service (see `internalApis`). */
  internalApis: Record<string, InternalApiStub>;
  close(): Promise<void>;
}

/**
 * What every service's integration tests start from: a fresh database migrated with the
 * service's own migrations, a key pair the service trusts, its consumed topics created (real
 * clusters may not auto-create them), and the service booted exactly as main.ts boots it.
 */
export async function startServiceTestApp<C extends ServiceConfig>(
  options: ServiceTestAppOptions<C>,
): Promise<ServiceTestApp> {
  const database = await createTestDatabase(options.instance);
  await migrateDatabase({
    url: database.url,
    entities: options.entities,
    migrations: options.migrations,
    applicationName: `${options.name}-migrate`,
  });
  const runtimeUrl = await ensureRuntimeLogin(testDatabaseServerUrl(), database.name);
  const auth = new TestAuth();
  const topicPrefix = testTopicPrefix(options.instance);
  if (options.consumedTopics?.length) {
    const consumed = options.consumedTopics.map((topic) => prefixedTopic(topicPrefix, topic));
    const kafka = createKafka({ brokers: testKafkaBrokers(), clientId: `${options.instance}-test` });
    await ensureTopics(kafka, [...consumed, ...consumed.map(deadLetterTopicOf)]);
  }
  const internalApis: Record<string, InternalApiStub> = {};
  const internalApiEnv: Record<string, string> = {};
  for (const [variable, called] of Object.entries(options.internalApis ?? {})) {
    internalApis[called] = await startInternalApiStub(auth, called);
    internalApiEnv[variable] = internalApis[called].url;
  }
  const service = await startTestService({
    name: options.name,
    config: options.config,
    env: {
      DATABASE_URL: runtimeUrl,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: topicPrefix,
      ...auth.serviceEnv,
      ...internalApiEnv,
      ...options.env,
    },
    module: options.module,
    errorFamily: options.errorFamily,
  });
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  return {
    service,
    database,
    runtimeUrl,
    sql,
    auth,
    http: new RecordingFetch(service.url, service.loggedErrors),
    topicPrefix,
    internalApis,
    async close() {
      await service.close();
      for (const stub of Object.values(internalApis)) await stub.close();
      await sql.end();
      await database.drop();
    },
  };
}
