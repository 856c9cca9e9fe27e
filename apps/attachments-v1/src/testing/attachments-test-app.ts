import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TOPICS } from '@erp/contracts';
import { migrateDatabase } from '@erp/database';
import { createKafka, deadLetterTopicOf, ensureTopics } from '@erp/messaging';
import {
  createTestDatabase,
  RecordingFetch,
  startTestS3Server,
  startTestService,
  TestAuth,
  testKafkaBrokers,
  testTopicPrefix,
  type RunningTestService,
  type TestDatabase,
  type TestS3Server,
} from '@erp/testing';
import { AttachmentsAppModule } from '../app.module';
import { OrphanSweeper } from '../attachments/orphan-sweeper';
import { AttachmentsConfig } from '../config';
import { ATTACHMENTS_ENTITIES, ATTACHMENTS_MIGRATIONS } from '../database';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';

export type StorageDriver = 'filesystem' | 's3';

/** An attachments-v1 instance on its own database and its own, empty object store. */
export interface AttachmentsTestApp {
  driver: StorageDriver;
  service: RunningTestService;
  database: TestDatabase;
  sql: Client;
  auth: TestAuth;
  http: RecordingFetch;
  /** This instance's Kafka topic prefix. */
  topicPrefix: string;
  /** The service's own storage driver instance, to look at what is stored. */
  storage: ObjectStorage;
  sweeper: OrphanSweeper;
  /** Makes an object known, as its owner's created event would. */
  addOwner(companyId: string, endpoint: 'customer' | 'supplierInvoice', objectId: string): Promise<void>;
  /** Every key in the store. */
  storedKeys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startAttachmentsTestApp(
  driver: StorageDriver = 'filesystem',
  env: Record<string, string> = {},
): Promise<AttachmentsTestApp> {
  const database = await createTestDatabase('attachments');
  await migrateDatabase({
    url: database.url,
    entities: ATTACHMENTS_ENTITIES,
    migrations: ATTACHMENTS_MIGRATIONS,
    applicationName: 'attachments-v1-migrate',
  });
  let s3: TestS3Server | undefined;
  let dir: string | undefined;
  let storageEnv: Record<string, string>;
  if (driver === 's3') {
    s3 = await startTestS3Server();
    storageEnv = s3.serviceEnv;
  } else {
    dir = await mkdtemp(join(tmpdir(), 'erp-attachments-'));
    storageEnv = { STORAGE_DRIVER: 'filesystem', STORAGE_DIR: dir };
  }
  const auth = new TestAuth();
  const topicPrefix = testTopicPrefix('attachments');
  // The topics this instance consumes exist before its consumer group starts (real clusters may not auto-create).
  const consumed = [TOPICS.customers, TOPICS.supplierInvoices].map((topic) => `${topicPrefix}${topic}`);
  await ensureTopics(createKafka({ brokers: testKafkaBrokers(), clientId: 'attachments-test' }), [
    ...consumed,
    ...consumed.map(deadLetterTopicOf),
  ]);
  const service = await startTestService({
    name: 'attachments-v1',
    config: AttachmentsConfig,
    env: {
      DATABASE_URL: database.url,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: topicPrefix,
      ORPHAN_SWEEP_INTERVAL_SECONDS: '0',
      ...storageEnv,
      ...auth.serviceEnv,
      ...env,
    },
    module: (config) => AttachmentsAppModule.forRoot(config),
    errorFamily: 'v1',
  });
  const sql = new Client({ connectionString: database.url });
  await sql.connect();
  const storage = service.app.get<ObjectStorage>(OBJECT_STORAGE);
  return {
    driver,
    service,
    database,
    sql,
    auth,
    http: new RecordingFetch(service.url),
    topicPrefix,
    storage,
    sweeper: service.app.get(OrphanSweeper),
    async addOwner(companyId, endpoint, objectId) {
      await sql.query(
        `INSERT INTO attachment_owners (company_id, endpoint, object_id, known_since) VALUES ($1, $2, $3, now())
         ON CONFLICT DO NOTHING`,
        [companyId, endpoint, objectId],
      );
    },
    async storedKeys() {
      const keys: string[] = [];
      for await (const key of storage.list()) keys.push(key);
      return keys.sort();
    },
    async close() {
      await service.close();
      await sql.end();
      await database.drop();
      await s3?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
