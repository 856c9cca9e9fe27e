import { Client } from 'pg';
import { migrateDatabase } from '@erp/database';
import {
  createTestDatabase,
  RecordingFetch,
  startTestService,
  TestAuth,
  testKafkaBrokers,
  testTopicPrefix,
  type RunningTestService,
  type TestDatabase,
} from '@erp/testing';
import { CustomersAppModule } from '../app.module';
import { CustomersConfig } from '../config';
import { CUSTOMERS_ENTITIES, CUSTOMERS_MIGRATIONS } from '../database';

/** A customers-v1 instance on its own fresh database, plus the tools its tests need. */
export interface CustomersTestApp {
  service: RunningTestService;
  database: TestDatabase;
  sql: Client;
  auth: TestAuth;
  http: RecordingFetch;
  /** This instance's Kafka topic prefix (its events go to `<prefix>erp.customers.customer.v1`). */
  topicPrefix: string;
  close(): Promise<void>;
}

export async function startCustomersTestApp(env: Record<string, string> = {}): Promise<CustomersTestApp> {
  const database = await createTestDatabase('customers');
  await migrateDatabase({
    url: database.url,
    entities: CUSTOMERS_ENTITIES,
    migrations: CUSTOMERS_MIGRATIONS,
    applicationName: 'customers-v1-migrate',
  });
  const auth = new TestAuth();
  const topicPrefix = testTopicPrefix('customers');
  const service = await startTestService({
    name: 'customers-v1',
    config: CustomersConfig,
    env: {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: topicPrefix,
      ...auth.serviceEnv,
      ...env,
    },
    module: (config) => CustomersAppModule.forRoot(config),
    errorFamily: 'v1',
  });
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  return {
    service,
    database,
    sql,
    auth,
    http: new RecordingFetch(service.url),
    topicPrefix,
    async close() {
      await service.close();
      await sql.end();
      await database.drop();
    },
  };
}

/**
 * Inserts `count` customers for a company straight into the table (fast setup for paging tests),
 * numbered `<prefix>0001`... in creation order.
 */
export async function insertCustomers(
  sql: Client,
  companyId: string,
  count: number,
  fields: { prefix?: string; status?: string; name?: string } = {},
): Promise<void> {
  await sql.query(
    `INSERT INTO customers (company_id, number, name, status, created_at, last_modified_at)
     SELECT $1, $2 || lpad(i::text, 5, '0'), $3 || ' ' || i, $4, date_trunc('milliseconds', now()), date_trunc('milliseconds', now())
     FROM generate_series(1, $5::int) AS i ORDER BY i`,
    [companyId, fields.prefix ?? 'P', fields.name ?? 'Customer', fields.status ?? 'Active', count],
  );
}
