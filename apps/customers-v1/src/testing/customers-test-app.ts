import type { Client } from 'pg';
import { type RunningTestService, startServiceTestApp, startTestService, type ServiceTestApp, testKafkaBrokers } from '@erp/testing';
import { CustomersAppModule } from '../app.module';
import { CustomersConfig } from '../config';
import { CUSTOMERS_ENTITIES, CUSTOMERS_MIGRATIONS } from '../database';

/** A customers-v1 instance on its own fresh database and topic prefix (events go to `<topicPrefix>erp.customers.customer.v1`). */
export type CustomersTestApp = ServiceTestApp;

export function startCustomersTestApp(env: Record<string, string> = {}): Promise<CustomersTestApp> {
  return startServiceTestApp({
    name: 'customers-v1',
    instance: 'customers',
    config: CustomersConfig,
    module: (config) => CustomersAppModule.forRoot(config),
    // /v1 answers in the v1 error shape, /api/v3/Customers in problem+json.
    errorFamily: 'by-path',
    entities: CUSTOMERS_ENTITIES,
    migrations: CUSTOMERS_MIGRATIONS,
    env,
  });
}

/** Another customers-v1 process on `t`'s database, topics and keys, as `REPLICAS=2` runs it (`env` as `t`'s). */
export function startCustomersReplica(t: CustomersTestApp, env: Record<string, string> = {}): Promise<RunningTestService> {
  return startTestService({
    name: 'customers-v1',
    config: CustomersConfig,
    module: (config) => CustomersAppModule.forRoot(config),
    errorFamily: 'by-path',
    env: {
      DATABASE_URL: t.runtimeUrl,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: t.topicPrefix,
      ...t.auth.serviceEnv,
      ...env,
    },
  });
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
