import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { type DevKeyPair, loadOrCreateDevKeyPair } from '@erp/auth';
import { databaseNameOf, ensureDatabase, ensureRuntimeLogin, freePort, isMigratedFrom, markMigratedFrom, releaseMigrationLease, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@erp/database';
import type { KafkaDevBroker } from '@erp/kafka-dev-broker';
import { appLauncher, type AppBuild } from './app-launcher';
import { untilExitedOk, waitForReady, type SpawnedProcess } from './child-process';
import { startDevBroker } from './dev-broker';
import { migrationSourcesHash } from './migration-sources';
import { assertPortsFree } from './start/port-check';
import { GATEWAY, SERVICES, type ServiceSpec, withCalledServices } from './services';
import { fixedPortPlan } from './system-ports';

export interface SystemOptions {
  /** A PostgreSQL server to use (each service gets its own database on it); embedded when absent. */
  databaseServerUrl?: string;
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  gatewayPort: number;
  /**
   * `fixed` uses each service's port (npm start): its catalog default or `fixedPorts`, checked free
   * before anything starts; `free` picks free ports (tests).
   */
  servicePorts: 'fixed' | 'free';
  /** With fixed ports: a service's first port instead of its catalog default (by catalog name). */
  fixedPorts?: Record<string, number>;
  /**
   * Stops the start-up: every process started so far is stopped (migrations too) and startSystem
   * rejects. `npm start` aborts it on Ctrl-C, so an interrupted start leaves nothing running.
   */
  signal?: AbortSignal;
  keys?: DevKeyPair;
  /** INTERNAL_API_SECRET of every service; default a fresh random one per system. */
  internalApiSecret?: string;
  /** Keep service output unless the service fails. */
  quiet?: boolean;
  env?: Record<string, string>;
  /** Database name for a service; tests pass unique, "test"-marked names. Default: the catalog's. */
  databaseName?: (serviceDatabase: string) => string;
  /**
   * Makes a service's database, migrated, and returns its URL; `migrate` runs the service's own
   * migrate entry against a URL. Default: create the database (named by `databaseName`) and
   * migrate it. Tests clone a template migrated once instead (test-system.ts).
   */
  provisionDatabase?: (service: ServiceSpec & { database: string }, migrate: (databaseUrl: string) => Promise<void>) => Promise<string>;
  /**
   * Kafka bootstrap servers every service uses (KAFKA_BROKERS). Absent: the in-memory dev broker
   * is started here and stopped with the system.
   */
  kafkaBrokers?: string[];
  /** Port of that dev broker. Default: 9092 with fixed service ports, a free port otherwise. */
  kafkaDevBrokerPort?: number;
  /**
   * Start only these services (by catalog name; the gateway routes only to them), and the services
   * they call (`calls` in the catalog: a service cannot start without them). Default: all.
   */
  services?: string[];
  /**
   * Processes per service (default 1), as production runs several pods: each replica on its own
   * port, the gateway taking them in turn. The first is named after the service, the others
   * `<service>#2`, `#3`, ... (for `restart`).
   */
  replicas?: number;
  /**
   * The DATABASE_URL a service gets for its (already migrated) database, from that database's URL
   * as the runtime login: e.g. the same through a connection pooler. Default: that URL.
   */
  serviceDatabaseUrl?: (databaseUrl: string) => string;
  /**
   * `source` (default): each app from its TypeScript through SWC's require hook. `compiled`: each
   * app's image build with plain Node, as the image runs it (`npx nx build <app>` first; the bench's
   * `--build=compiled` does that). Migrations run from source either way.
   */
  build?: AppBuild;
  log?: (line: string) => void;
}

/** Processes per service from an environment variable (REPLICAS, TEST_REPLICAS): 1 to 8, default 1. */
export function replicasFrom(variable: string): number {
  const value = process.env[variable];
  if (value === undefined || value === '') return 1;
  const replicas = Number(value);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 8) throw new Error(`${variable} must be an integer from 1 to 8, not "${value}"`);
  return replicas;
}

export interface RunningSystem {
  baseUrl: string;
  /** Each service's first replica. */
  serviceUrls: Record<string, string>;
  /** Each service's replicas, the first one included. */
  replicaUrls: Record<string, string[]>;
  databaseUrls: Record<string, string>;
  /** The Kafka the services use (the dev broker's address when it was started here). */
  kafkaBrokers: string[];
  keys: DevKeyPair;
  processes: SpawnedProcess[];
  /**
   * Kills a running process by catalog name (a service or `api-gateway`; default SIGKILL, as a
   * crash) and starts it again with the same port, environment and database, as a supervisor
   * would; resolves with the new process once it is ready. For crash tests. `env` changes variables
   * of this start only (e.g. a consumer group switched back on).
   */
  restart(name: string, options?: { signal?: NodeJS.Signals; readyTimeoutMs?: number; env?: Record<string, string> }): Promise<SpawnedProcess>;
  stop(): Promise<void>;
}

/**
 * Starts the whole system the way production runs it: one process per service, each with its
 * own database migrated first, the gateway in front. Used by `npm start` and by end-to-end tests.
 */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const log = options.log ?? (() => undefined);
  const processes: SpawnedProcess[] = [];
  // Migrate processes still running: a failed or aborted start stops them before the database.
  const migrations = new Set<SpawnedProcess>();
  // How to start each process again (same entry, port and environment): see restart().
  const launchers = new Map<string, { launch: (env?: Record<string, string>) => SpawnedProcess; readyUrl: string }>();
  let embedded: EmbeddedPostgresHandle | undefined;
  let devBroker: KafkaDevBroker | undefined;

  const stop = async () => {
    // Gateway first (stop taking traffic), then the services together (each outbox relay flushes
    // to Kafka as its service stops), then Kafka, then the database.
    const gateway = processes.find((proc) => proc.name === GATEWAY.name);
    await gateway?.stop('SIGTERM');
    await Promise.all([...processes.filter((proc) => proc !== gateway), ...migrations].map((proc) => proc.stop('SIGTERM')));
    await devBroker?.stop();
    await embedded?.stop();
  };

  const selected = withCalledServices(options.services);
  const replicas = Math.max(1, options.replicas ?? 1);
  const portPlan = options.servicePorts === 'fixed' ? fixedPortPlan(options, selected, replicas) : undefined;
  // Every port checked before anything starts: a taken one stops here, with nothing migrated.
  if (portPlan) await assertPortsFree(portPlan.planned);
  const keys = options.keys ?? loadOrCreateDevKeyPair(join(options.dataDir, 'dev-keys'));
  // Aborted by the caller (Ctrl-C) or by the first part of the start that fails: the others stop
  // waiting, and what is running is stopped below.
  const starting = new AbortController();
  const signal = starting.signal;
  const abortStart = (reason: unknown) => {
    if (!signal.aborted) starting.abort(reason);
  };
  if (options.signal?.aborted) abortStart(options.signal.reason);
  options.signal?.addEventListener('abort', () => abortStart(options.signal?.reason), { once: true });

  try {
    signal.throwIfAborted();
    let serverUrl = options.databaseServerUrl;
    if (!serverUrl) {
      log('starting embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({ dataDir: join(options.dataDir, 'postgres'), persistent: true });
      serverUrl = embedded.adminUrl;
    }
    const databaseServer = serverUrl;

    let kafkaBrokers = options.kafkaBrokers;
    if (!kafkaBrokers || kafkaBrokers.length === 0) {
      devBroker = await startDevBroker(options, log);
      kafkaBrokers = devBroker.brokers;
    }

    const commonEnv = {
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
      // The services that serve or call an internal API sign and check calls with it (one per system).
      INTERNAL_API_SECRET: options.internalApiSecret ?? randomBytes(32).toString('base64url'),
      LOG_PRETTY: process.stdout.isTTY ? 'true' : 'false',
      KAFKA_BROKERS: kafkaBrokers.join(','),
      ...options.env,
    };
    // Every address first, so that each service can start as soon as its own migrations are done
    // and the gateway alongside them, instead of one phase waiting for the slowest of the last.
    const serviceUrls: Record<string, string> = {};
    const replicaUrls: Record<string, string[]> = {};
    const gatewayEnv: Record<string, string> = {};
    for (const service of selected) {
      const urls: string[] = [];
      for (let replica = 0; replica < replicas; replica++) {
        // Fixed ports: the service's own, then every tenth after it (3101, 3111, 3121, ...).
        const port = portPlan ? (portPlan.first[service.name] as number) + 10 * replica : await freePort();
        urls.push(`http://127.0.0.1:${port}`);
      }
      replicaUrls[service.name] = urls;
      serviceUrls[service.name] = urls[0] as string;
      if (service.gatewayVariable) gatewayEnv[service.gatewayVariable] = urls.join(',');
    }
    // A service that calls others' internal APIs gets their replicas under their gateway variables.
    const calledUrls = (service: ServiceSpec): Record<string, string> =>
      Object.fromEntries(
        (service.calls ?? []).flatMap((name) => {
          const called = SERVICES.find((s) => s.name === name);
          return called?.gatewayVariable && replicaUrls[name] ? [[called.gatewayVariable, replicaUrls[name].join(',')]] : [];
        }),
      );
    const gatewayPort = options.gatewayPort === 0 ? await freePort() : options.gatewayPort;
    signal.throwIfAborted();
    const baseUrl = `http://127.0.0.1:${gatewayPort}`;

    const inDataDir = (service: ServiceSpec): Record<string, string> =>
      Object.fromEntries(Object.entries(service.dataDirEnv ?? {}).filter(([name]) => process.env[name] === undefined && options.env?.[name] === undefined).map(([name, path]) => [name, resolve(options.dataDir, path)]));
    const spawnApp = appLauncher(options.build ?? 'source');
    const databaseUrls: Record<string, string> = {};
    const startService = async (service: (typeof selected)[number]) => {
      const database = service.database;
      if (database) {
        const migrate = (databaseUrl: string) => {
          signal.throwIfAborted();
          log(`migrating ${service.name}`);
          // Both steps at once (one version here, docs/migrations.md), from the services' build: the e2e targets run the image's migrate.js.
          const proc = spawnApp(service, { ...commonEnv, DATABASE_URL: databaseUrl }, { quiet: true, args: ['--phase=contract'] }, `${service.name} migrate`, 'migrate');
          migrations.add(proc);
          return untilExitedOk(proc).finally(() => migrations.delete(proc));
        };
        const createAndMigrate = async () => {
          const databaseUrl = await ensureDatabase(databaseServer, options.databaseName ? options.databaseName(database) : database);
          // Our own cluster, whose data directory the caller holds (npm start): no other runner is
          // alive, so a lease left by an interrupted start is freed instead of waited out.
          if (embedded) await releaseMigrationLease(databaseUrl);
          // The same migration files as the start that last migrated it in full: its migrate
          // process (TypeORM and the app's modules loaded to find nothing to do) is left out.
          const sources = migrationSourcesHash(service.dir);
          if (await isMigratedFrom(databaseUrl, sources)) {
            log(`${service.name}: migrations unchanged since they last ran, not run again`);
            return databaseUrl;
          }
          await migrate(databaseUrl);
          await markMigratedFrom(databaseUrl, sources);
          return databaseUrl;
        };
        const provision = options.provisionDatabase ?? createAndMigrate;
        databaseUrls[service.name] = await provision({ ...service, database }, migrate);
      }
      // The migrations ran as the owner; the service connects as the runtime login, which owns
      // nothing (docs/platform-teams.md, "Database logins").
      const ownerUrl = databaseUrls[service.name];
      const databaseUrl = ownerUrl && (await ensureRuntimeLogin(databaseServer, databaseNameOf(ownerUrl) as string));
      const serviceDatabaseUrl = databaseUrl && options.serviceDatabaseUrl ? options.serviceDatabaseUrl(databaseUrl) : databaseUrl;
      const urls = replicaUrls[service.name] as string[];
      await Promise.all(
        urls.map(async (url, replica) => {
          const name = replica === 0 ? service.name : `${service.name}#${replica + 1}`;
          const launch = (env: Record<string, string> = {}) =>
            spawnApp(service, {
              ...commonEnv,
              ...calledUrls(service),
              ...inDataDir(service),
              ...service.env,
              PORT: new URL(url).port,
              HOST: '127.0.0.1',
              ...(serviceDatabaseUrl ? { DATABASE_URL: serviceDatabaseUrl } : {}),
              ...env,
            }, { quiet: options.quiet, nodeArgs: service.nodeArgs }, name);
          launchers.set(name, { launch, readyUrl: `${url}/health/ready` });
          signal.throwIfAborted();
          const proc = launch();
          processes.push(proc);
          await waitForReady(`${url}/health/ready`, proc, undefined, signal);
          log(`${name} ready at ${url}`);
        }),
      );
    };
    const launchGateway = (env: Record<string, string> = {}) =>
      spawnApp(GATEWAY, {
        ...commonEnv,
        ...gatewayEnv,
        PORT: String(gatewayPort),
        HOST: options.servicePorts === 'fixed' ? '0.0.0.0' : '127.0.0.1',
        ...env,
      }, { quiet: options.quiet, nodeArgs: GATEWAY.nodeArgs });
    const startGateway = async () => {
      launchers.set(GATEWAY.name, { launch: launchGateway, readyUrl: `${baseUrl}/health/ready` });
      const gateway = launchGateway();
      processes.push(gateway);
      await waitForReady(`${baseUrl}/health/ready`, gateway, undefined, signal);
    };
    // Every start settles before a failure is reported, so the stop below meets no migration
    // half-way (a migration's connection cut by the database's shutdown, in the middle of its DDL).
    const starts = [...selected.map(startService), startGateway()].map((start) => start.catch((error: unknown) => abortStart(error)));
    await Promise.all(starts);
    signal.throwIfAborted();
    serviceUrls[GATEWAY.name] = baseUrl;

    const restart: RunningSystem['restart'] = async (name, { signal = 'SIGKILL', readyTimeoutMs, env } = {}) => {
      const launcher = launchers.get(name);
      const index = processes.findIndex((proc) => proc.name === name);
      if (!launcher || index < 0) throw new Error(`no process named ${name} in this system`);
      await processes[index].stop(signal);
      // Same slot in the list, so the list stays one process per name.
      const proc = launcher.launch(env);
      processes[index] = proc;
      await waitForReady(launcher.readyUrl, proc, readyTimeoutMs);
      return proc;
    };
    return { baseUrl, serviceUrls, replicaUrls, databaseUrls, kafkaBrokers, keys, processes, restart, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
