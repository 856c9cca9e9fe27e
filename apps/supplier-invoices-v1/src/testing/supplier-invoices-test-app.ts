import { Client } from 'pg';
import { TOPICS } from '@erp/contracts';
import { migrateDatabase } from '@erp/database';
import { createKafka, deadLetterTopicOf, ensureTopics } from '@erp/messaging';
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
import { SupplierInvoicesAppModule } from '../app.module';
import { SupplierInvoicesConfig } from '../config';
import { SUPPLIER_INVOICES_ENTITIES, SUPPLIER_INVOICES_MIGRATIONS } from '../database';

/** A supplier-invoices-v1 instance on its own fresh database, plus the tools its tests need. */
export interface SupplierInvoicesTestApp {
  service: RunningTestService;
  database: TestDatabase;
  sql: Client;
  auth: TestAuth;
  http: RecordingFetch;
  /** This instance's Kafka topic prefix (its events go to `<prefix>erp.supplier-invoices.supplier-invoice.v1`). */
  topicPrefix: string;
  close(): Promise<void>;
}

export async function startSupplierInvoicesTestApp(env: Record<string, string> = {}): Promise<SupplierInvoicesTestApp> {
  const database = await createTestDatabase('supplier_invoices');
  await migrateDatabase({
    url: database.url,
    entities: SUPPLIER_INVOICES_ENTITIES,
    migrations: SUPPLIER_INVOICES_MIGRATIONS,
    applicationName: 'supplier-invoices-v1-migrate',
  });
  const auth = new TestAuth();
  const topicPrefix = testTopicPrefix('supplier-invoices');
  // The topics this instance consumes exist before its consumer group starts (real clusters may not auto-create).
  const consumed = `${topicPrefix}${TOPICS.attachments}`;
  await ensureTopics(createKafka({ brokers: testKafkaBrokers(), clientId: 'supplier-invoices-test' }), [
    consumed,
    deadLetterTopicOf(consumed),
  ]);
  const service = await startTestService({
    name: 'supplier-invoices-v1',
    config: SupplierInvoicesConfig,
    env: {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: topicPrefix,
      ...auth.serviceEnv,
      ...env,
    },
    module: (config) => SupplierInvoicesAppModule.forRoot(config),
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
 * Inserts `count` invoices for a company straight into the table (fast setup for paging tests),
 * numbered `<prefix>00001`... in creation order, without lines.
 */
export async function insertSupplierInvoices(
  sql: Client,
  companyId: string,
  count: number,
  fields: { prefix?: string; status?: string; supplier?: string; documentType?: string } = {},
): Promise<void> {
  await sql.query(
    `INSERT INTO supplier_invoices (company_id, reference_number, document_type, supplier_number, supplier_name,
       document_date, status, amount, vat_amount, balance, created_at, last_modified_at)
     SELECT $1, $2 || lpad(i::text, 5, '0'), $3, $4::text, 'Supplier ' || $4::text, DATE '2026-01-01', $5, 0, 0, 0,
       date_trunc('milliseconds', now()), date_trunc('milliseconds', now())
     FROM generate_series(1, $6::int) AS i ORDER BY i`,
    [companyId, fields.prefix ?? 'P', fields.documentType ?? 'Invoice', fields.supplier ?? 'S1', fields.status ?? 'Open', count],
  );
}
