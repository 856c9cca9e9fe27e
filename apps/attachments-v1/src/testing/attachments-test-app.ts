import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOPICS } from '@erp/contracts';
import { startServiceTestApp, startTestS3Server, type ServiceTestApp, type TestS3Server } from '@erp/testing';
import { AttachmentsAppModule } from '../app.module';
import { OrphanSweeper } from '../attachments/orphan-sweeper';
import { AttachmentsConfig } from '../config';
import { ATTACHMENTS_ENTITIES, ATTACHMENTS_MIGRATIONS } from '../database';
import { OBJECT_STORAGE, type ObjectStorage } from '../storage/object-storage';

export type StorageDriver = 'filesystem' | 's3';

/** An attachments-v1 instance on its own database and its own, empty object store. */
export interface AttachmentsTestApp extends ServiceTestApp {
  driver: StorageDriver;
  /** The service's own storage driver instance, to look at what is stored. */
  storage: ObjectStorage;
  sweeper: OrphanSweeper;
  /** Makes an object known, as its owner's created event would. */
  addOwner(companyId: string, endpoint: 'customer' | 'supplierInvoice', objectId: string): Promise<void>;
  /** Every key in the store. */
  storedKeys(): Promise<string[]>;
}

export async function startAttachmentsTestApp(
  driver: StorageDriver = 'filesystem',
  env: Record<string, string> = {},
): Promise<AttachmentsTestApp> {
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
  const base = await startServiceTestApp({
    name: 'attachments-v1',
    instance: 'attachments',
    config: AttachmentsConfig,
    module: (config) => AttachmentsAppModule.forRoot(config),
    errorFamily: 'v1',
    entities: ATTACHMENTS_ENTITIES,
    migrations: ATTACHMENTS_MIGRATIONS,
    consumedTopics: [TOPICS.customers, TOPICS.supplierInvoices],
    internalApis: { CUSTOMERS_URL: 'customers-v1', SUPPLIER_INVOICES_URL: 'supplier-invoices-v1' },
    env: { ORPHAN_SWEEP_INTERVAL_SECONDS: '0', ...storageEnv, ...env },
  });
  const { service, sql } = base;
  const storage = service.app.get<ObjectStorage>(OBJECT_STORAGE);
  return {
    ...base,
    driver,
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
      await base.close();
      await s3?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
}
