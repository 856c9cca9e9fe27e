import { dropDatabase } from '@erp/database';
import { TestAuth, testDatabaseName, testDatabaseServerUrl, testKafkaBrokers, testTopicPrefix } from '@erp/testing';
import { join } from 'node:path';
import { migratedCopy } from './migrated-template';
import { REPO_ROOT } from './paths';
import { replicasFrom, startSystem, type RunningSystem, type SystemOptions } from './system';

export interface TestSystemOptions {
  /** Extra environment for every process (merged over the test defaults below). */
  env?: Record<string, string>;
  /** Start only these services (catalog names). Default: all. */
  services?: string[];
  /** Key pair to sign tokens with. Default: a fresh TestAuth's. */
  auth?: TestAuth;
  /** A PostgreSQL server of the suite's own (e.g. one it stops and starts). Default: the run's shared test server. */
  databaseServerUrl?: string;
  /** A Kafka of the suite's own (e.g. a dev broker it stops and starts). Default: the run's shared test broker. */
  kafkaBrokers?: string[];
  /** Processes per service. Default: TEST_REPLICAS, else 1 (`TEST_REPLICAS=2 npx nx e2e api-e2e`). */
  replicas?: number;
  /** The DATABASE_URL each service gets for its database (e.g. through a pooler). Default: the database's own. */
  serviceDatabaseUrl?: (databaseUrl: string) => string;
  /**
   * How each app starts: from its TypeScript or its image build (SystemOptions.build). Default:
   * TEST_SYSTEM_BUILD, else `source`. The `e2e` targets set `compiled` and build the apps first
   * (nx.json): each process then starts in about 1.1 s of CPU instead of 1.5 s through SWC's
   * require hook, over some 40 system starts a run, and runs what the images run.
   */
  build?: SystemOptions['build'];
}

export interface TestSystem {
  system: RunningSystem;
  auth: TestAuth;
  /** Stops every process, then drops the test databases this system created. */
  stop(): Promise<void>;
}

/**
 * The whole system as real processes for an end-to-end or reliability suite: fresh, uniquely named
 * test databases on the test PostgreSQL server (copies of templates migrated once, see
 * migrated-template.ts), the test Kafka, free ports and a topic prefix of its own, so suites running
 * side by side never see each other. Kept apart from the `@erp/dev` index so
 * `npm start` never loads the test fixtures.
 */
export async function startTestSystem(label: string, options: TestSystemOptions = {}): Promise<TestSystem> {
  const auth = options.auth ?? new TestAuth();
  const serverUrl = options.databaseServerUrl ?? testDatabaseServerUrl();
  const databases: string[] = [];
  const systemOptions: SystemOptions = {
    databaseServerUrl: serverUrl,
    // Dev keys come from `auth`; attachment bytes of test systems go here (STORAGE_DIR).
    dataDir: join(REPO_ROOT, '.data', 'test-systems'),
    gatewayPort: 0,
    servicePorts: 'free',
    keys: auth.keys,
    internalApiSecret: auth.internalApiSecret,
    quiet: true,
    ...(options.services ? { services: options.services } : {}),
    replicas: options.replicas ?? replicasFrom('TEST_REPLICAS'),
    ...(options.serviceDatabaseUrl ? { serviceDatabaseUrl: options.serviceDatabaseUrl } : {}),
    build: options.build ?? testSystemBuild(),
    provisionDatabase: (service, migrate) => {
      const unique = testDatabaseName(`${label}_${service.database}`);
      databases.push(unique);
      return migratedCopy(serverUrl, service, unique, migrate);
    },
    kafkaBrokers: options.kafkaBrokers ?? testKafkaBrokers(),
    env: { LOG_LEVEL: 'warn', KAFKA_TOPIC_PREFIX: testTopicPrefix(label), ...options.env },
  };
  const dropAll = async () => {
    for (const name of databases) await dropDatabase(serverUrl, name);
  };
  let system: RunningSystem;
  try {
    system = await startSystem(systemOptions);
  } catch (error) {
    await dropAll();
    throw error;
  }
  return {
    system,
    auth,
    stop: async () => {
      await system.stop();
      await dropAll();
    },
  };
}

/** How test systems start their apps: TEST_SYSTEM_BUILD (`source`, the default, or `compiled`; the `e2e` targets set `compiled`). */
export function testSystemBuild(): NonNullable<SystemOptions['build']> {
  const value = process.env['TEST_SYSTEM_BUILD'];
  if (value === undefined || value === '' || value === 'source') return 'source';
  if (value === 'compiled') return 'compiled';
  throw new Error(`TEST_SYSTEM_BUILD must be source or compiled, not "${value}"`);
}
