import { Client } from 'pg';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import {
  createEvent,
  type DomainEvent,
  salesOrderLink,
  salesOrderSubject,
  TOPICS,
  topicOf,
} from '@erp/contracts';
import { ensureRuntimeLogin, migrateDatabase } from '@erp/database';
import { ensureTopics, KafkaEventTransport, messageKeyOf, prefixedTopic } from '@erp/messaging';
import {
  createTestDatabase,
  RecordingFetch,
  testDatabaseServerUrl,
  startTestService,
  TestAuth,
  testKafkaBrokers,
  testTopicPrefix,
  type RunningTestService,
  type TestDatabase,
} from '@erp/testing';
import { WebhookPublisherAppModule, type WebhookPublisherOverrides } from '../app.module';
import { WebhookPublisherConfig } from '../config';
import { WEBHOOKS_ENTITIES, WEBHOOKS_MIGRATIONS } from '../database';
import { CONSUMED_TOPICS, CONSUMER_GROUP } from '../events/webhook-events.controller';

/** Fast settings for tests: millisecond retries, no jitter, frequent polls, private targets allowed. */
export const TEST_WEBHOOK_ENV: Record<string, string> = {
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOKS_RETRY_SCHEDULE: '30ms,30ms,30ms',
  WEBHOOKS_RETRY_JITTER: '0',
  WEBHOOKS_POLL_INTERVAL_MS: '50',
  WEBHOOKS_TIMEOUT_MS: '3000',
  WEBHOOKS_LEASE_MS: '5000',
};

export interface WebhooksTestApp {
  service: RunningTestService;
  database: TestDatabase & { runtimeUrl: string };
  sql: Client;
  auth: TestAuth;
  http: RecordingFetch;
  topicPrefix: string;
  kafkaBrokers: string;
  /** Publishes events to their topics, keyed per aggregate, as the producing services' relays do. */
  publish(...events: DomainEvent[]): Promise<void>;
  /** Request helper: JSON body, token for the company with webhooks:manage. */
  api(
    path: string,
    init?: { method?: string; body?: unknown; company?: string; scope?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A database ready for the service (also used by tests that run it as a separate process). */
/** A migrated database; `runtimeUrl` is the service's DATABASE_URL (the runtime login), `url` the owner's. */
export async function createWebhooksDatabase(): Promise<TestDatabase & { runtimeUrl: string }> {
  const database = await createTestDatabase('webhooks');
  await migrateDatabase({
    url: database.url,
    entities: WEBHOOKS_ENTITIES,
    migrations: WEBHOOKS_MIGRATIONS,
    applicationName: 'webhook-publisher-migrate',
  });
  return { ...database, runtimeUrl: await ensureRuntimeLogin(testDatabaseServerUrl(), database.name) };
}

/** Creates the consumed topics under a prefix of their own. */
export async function createTestTopics(name: string): Promise<{ prefix: string; kafka: Kafka }> {
  const prefix = testTopicPrefix(name);
  const kafka = new Kafka({
    clientId: `webhooks-test-${name}`,
    brokers: testKafkaBrokers(),
    logLevel: logLevel.NOTHING,
  });
  await ensureTopics(
    kafka,
    CONSUMED_TOPICS.map((topic) => prefixedTopic(prefix, topic)),
    { numPartitions: 3 },
  );
  return { prefix, kafka };
}

export async function publishEvents(
  producer: Producer,
  prefix: string,
  events: DomainEvent[],
): Promise<void> {
  const byTopic = new Map<string, DomainEvent[]>();
  for (const event of events) {
    const topic = prefixedTopic(prefix, topicOf(event.type));
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), event]);
  }
  await producer.sendBatch({
    acks: -1,
    topicMessages: [...byTopic].map(([topic, list]) => ({
      topic,
      messages: list.map((event) => ({ key: messageKeyOf(event), value: JSON.stringify(event) })),
    })),
  });
}

export async function startWebhooksTestApp(
  name: string,
  env: Record<string, string> = {},
  overrides: WebhookPublisherOverrides = {},
): Promise<WebhooksTestApp> {
  const database = await createWebhooksDatabase();
  const { prefix, kafka } = await createTestTopics(name);
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const auth = new TestAuth();
  const service = await startTestService({
    name: 'webhook-publisher',
    config: WebhookPublisherConfig,
    env: {
      DATABASE_URL: database.runtimeUrl,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: prefix,
      ...auth.serviceEnv,
      ...TEST_WEBHOOK_ENV,
      ...env,
    },
    module: (config) => WebhookPublisherAppModule.forRoot(config, overrides),
    errorFamily: 'problem',
  });
  // Every topic's consumer of the group (none when WEBHOOKS_CONSUMER is off).
  await service.app.get(KafkaEventTransport).ready(CONSUMER_GROUP);
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  const http = new RecordingFetch(service.url, service.loggedErrors);
  return {
    service,
    database,
    sql,
    auth,
    http,
    topicPrefix: prefix,
    kafkaBrokers: testKafkaBrokers().join(','),
    publish: (...events) => publishEvents(producer, prefix, events),
    async api(path, init = {}) {
      const headers = await auth.headers({
        company: init.company ?? '1000001',
        ...(init.scope === undefined ? {} : { scope: init.scope }),
      });
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      return http.request(path, {
        method: init.method ?? 'GET',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    },
    async close() {
      await service.close();
      await producer.disconnect();
      await sql.end();
      await database.drop();
    },
  };
}

/** A SALESORDER_* event as sales-orders-v3 publishes it. */
export function salesOrderEvent(
  companyId: string,
  orderId: string,
  version: number,
  type: 'SALESORDER_CREATED' | 'SALESORDER_UPDATED' | 'SALESORDER_DELETED' = 'SALESORDER_UPDATED',
  time: Date = new Date(),
): DomainEvent {
  return createEvent({
    type,
    source: 'sales-orders-v3',
    companyId,
    subject: salesOrderSubject('SO', orderId),
    time,
    data: {
      type: 'SO',
      orderId,
      customerId: '10001',
      status: 'Open',
      version: String(version),
      link: salesOrderLink('SO', orderId),
    },
  }) as DomainEvent;
}

/** A CUSTOMER_UPDATED event as customers-v1 publishes it. */
export function customerEvent(companyId: string, number: string, version: number): DomainEvent {
  return createEvent({
    type: 'CUSTOMER_UPDATED',
    source: 'customers-v1',
    companyId,
    subject: number,
    data: {
      number,
      name: `Customer ${number}`,
      status: 'Active',
      currencyId: 'NOK',
      version: String(version),
      lastModifiedDateTime: '2026-01-31T09:15:00.123',
      link: `/v1/customer/${number}`,
    },
  }) as DomainEvent;
}

export { TOPICS };
