import { join } from 'node:path';
import { type DevKeyPair, loadOrCreateDevKeyPair } from '@erp/auth';
import { ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@erp/database';
import { runTs, spawnTs, waitForReady, type SpawnedProcess } from './child-process';
import { GATEWAY, SERVICES } from './services';

export interface SystemOptions {
  /** A PostgreSQL server to use (each service gets its own database on it); embedded when absent. */
  databaseServerUrl?: string;
  dataDir: string;
  /** Gateway port; 0 picks a free one. */
  gatewayPort: number;
  /** `fixed` uses each service's default port (npm start); `free` picks free ports (tests). */
  servicePorts: 'fixed' | 'free';
  keys?: DevKeyPair;
  /** Keep service output unless the service fails. */
  quiet?: boolean;
  env?: Record<string, string>;
  /** Database name for a service; tests pass unique, "test"-marked names. Default: the catalog's. */
  databaseName?: (serviceDatabase: string) => string;
  log?: (line: string) => void;
}

export interface RunningSystem {
  baseUrl: string;
  serviceUrls: Record<string, string>;
  databaseUrls: Record<string, string>;
  keys: DevKeyPair;
  processes: SpawnedProcess[];
  stop(): Promise<void>;
}

/**
 * Starts the whole system the way production runs it: one process per service, each with its
 * own database migrated first, the gateway in front. Used by `npm start` and by end-to-end tests.
 */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const log = options.log ?? (() => undefined);
  const keys = options.keys ?? loadOrCreateDevKeyPair(join(options.dataDir, 'dev-keys'));
  const processes: SpawnedProcess[] = [];
  let embedded: EmbeddedPostgresHandle | undefined;

  const stop = async () => {
    // Gateway first (stop taking traffic), then services, then the database.
    for (const proc of [...processes].reverse()) await proc.stop('SIGTERM');
    await embedded?.stop();
  };

  try {
    let serverUrl = options.databaseServerUrl;
    if (!serverUrl) {
      log('starting embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({ dataDir: join(options.dataDir, 'postgres'), persistent: true });
      serverUrl = embedded.adminUrl;
    }
    const databaseServer = serverUrl;

    const commonEnv = {
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
      LOG_PRETTY: process.stdout.isTTY ? 'true' : 'false',
      ...options.env,
    };
    const databaseUrls: Record<string, string> = {};
    await Promise.all(
      SERVICES.map(async (service) => {
        if (!service.database) return;
        const name = options.databaseName ? options.databaseName(service.database) : service.database;
        databaseUrls[service.name] = await ensureDatabase(databaseServer, name);
        log(`migrating ${service.name}`);
        await runTs(`${service.name} migrate`, `${service.dir}/src/migrate.ts`, {
          ...commonEnv,
          DATABASE_URL: databaseUrls[service.name],
        });
      }),
    );

    const serviceUrls: Record<string, string> = {};
    const gatewayEnv: Record<string, string> = {};
    await Promise.all(
      SERVICES.map(async (service) => {
        const port = options.servicePorts === 'fixed' ? service.defaultPort : await freePort();
        const url = `http://127.0.0.1:${port}`;
        const proc = spawnTs(service.name, `${service.dir}/src/main.ts`, {
          ...commonEnv,
          PORT: String(port),
          HOST: '127.0.0.1',
          ...(service.database ? { DATABASE_URL: databaseUrls[service.name] } : {}),
        }, { quiet: options.quiet });
        processes.push(proc);
        await waitForReady(`${url}/health/ready`, proc);
        serviceUrls[service.name] = url;
        if (service.gatewayVariable) gatewayEnv[service.gatewayVariable] = url;
        log(`${service.name} ready at ${url}`);
      }),
    );

    const gatewayPort = options.gatewayPort === 0 ? await freePort() : options.gatewayPort;
    const gateway = spawnTs(GATEWAY.name, `${GATEWAY.dir}/src/main.ts`, {
      ...commonEnv,
      ...gatewayEnv,
      PORT: String(gatewayPort),
      HOST: options.servicePorts === 'fixed' ? '0.0.0.0' : '127.0.0.1',
    }, { quiet: options.quiet });
    processes.push(gateway);
    const baseUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitForReady(`${baseUrl}/health/ready`, gateway);
    serviceUrls[GATEWAY.name] = baseUrl;
    return { baseUrl, serviceUrls, databaseUrls, keys, processes, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
