// Helpers for this lib's integration specs (not exported by the lib).
import { createEvent, type DomainEvent, TOPICS } from '@erp/contracts';
import { createDataSource, runMigrations } from '@erp/database';
import { createTestDatabase, PATIENCE_MS, testKafkaBrokers, type TestDatabase } from '@erp/testing';
export { TopicReader } from '@erp/testing';
import type { Kafka } from 'kafkajs';
import type { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { createKafka } from '../kafka/kafka-client';
import { MESSAGING_MIGRATIONS } from '../schema';

/** A stand-in aggregate (a customer's number and version) and the effects consumers write. */
export class CreateTestTables1763800000100 implements MigrationInterface {
  name = 'CreateTestTables1763800000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE test_customers (
        company_id varchar(64) NOT NULL,
        number varchar(30) NOT NULL,
        version bigint NOT NULL,
        PRIMARY KEY (company_id, number)
      )`);
    await q.query(`
      CREATE TABLE test_effects (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        consumer_group varchar(255) NOT NULL,
        event_id uuid NOT NULL,
        note text
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE test_effects`);
    await q.query(`DROP TABLE test_customers`);
  }
}

export interface TestDatabaseHandle {
  database: TestDatabase;
  dataSource: DataSource;
  close(): Promise<void>;
}

/** A fresh database with the outbox, processed_events and the test tables. */
export async function startTestDatabase(prefix: string): Promise<TestDatabaseHandle> {
  const database = await createTestDatabase(prefix);
  const dataSource = createDataSource({
    url: database.url,
    entities: [],
    migrations: [...MESSAGING_MIGRATIONS, CreateTestTables1763800000100],
    applicationName: `${prefix}-test`,
  });
  await runMigrations(dataSource);
  return {
    database,
    dataSource,
    async close() {
      await dataSource.destroy();
      await database.drop();
    },
  };
}

export function testKafka(clientId: string): Kafka {
  return createKafka({ brokers: testKafkaBrokers(), clientId, logLevel: 'nothing' });
}

/** Group timings scaled down for tests (6 s is the smallest session timeout real Kafka allows). */
export const FAST_CONSUMER = {
  sessionTimeoutMs: 6_000,
  heartbeatIntervalMs: 500,
  rebalanceTimeoutMs: 6_000,
  maxWaitTimeInMs: 100,
};

/** Changes a test customer and returns the CUSTOMER_UPDATED event describing it. */
export async function changeCustomer(
  manager: EntityManager,
  companyId: string,
  number: string,
): Promise<Omit<DomainEvent<'CUSTOMER_UPDATED'>, 'id' | 'time' | 'source'>> {
  const rows = await manager.query<Array<{ version: string }>>(
    `INSERT INTO test_customers (company_id, number, version) VALUES ($1, $2, 1)
     ON CONFLICT (company_id, number) DO UPDATE SET version = test_customers.version + 1
     RETURNING version::text`,
    [companyId, number],
  );
  const version = rows[0]?.version;
  if (!version) throw new Error(`no version returned for customer ${number}`);
  return {
    type: 'CUSTOMER_UPDATED',
    companyId,
    subject: number,
    data: customerData(number, version),
  };
}

export function customerData(number: string, version: string) {
  return {
    number,
    name: `Customer ${number}`,
    status: 'Active' as const,
    currencyId: 'NOK',
    version,
    lastModifiedDateTime: '2025-01-31T09:15:00.123',
    link: `/v1/customer/${number}`,
  };
}

/** A complete, valid customer event as a producer would publish it. */
export function customerEvent(number: string, version = '1', companyId = '1000001'): DomainEvent<'CUSTOMER_UPDATED'> {
  return createEvent({
    type: 'CUSTOMER_UPDATED',
    source: 'messaging-tests',
    companyId,
    subject: number,
    data: customerData(number, version),
  });
}

export const CUSTOMER_TOPIC = TOPICS.customers;

export async function waitFor(
  description: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = PATIENCE_MS,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The group's committed offset per partition of a topic (-1 where nothing is committed). */
export async function committedOffsets(kafka: Kafka, groupId: string, topic: string): Promise<Map<number, number>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [result] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return new Map((result?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
  } finally {
    await admin.disconnect();
  }
}
