import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { databaseNameOf, dropDatabase, ensureDatabase, ensureRuntimeLogin, freePort } from '@erp/database';
import { appLauncher, GATEWAY, runTs, SERVICES, type ServiceSpec, spawnTs, type SpawnedProcess, untilExitedOk, waitForReady } from '@erp/dev';
import { testSystemBuild } from '@erp/dev/testing';
import { type TestAuth, testDatabaseName, testDatabaseServerUrl, testKafkaBrokers, testTopicPrefix } from '@erp/testing';

/** Which code a process runs: the previous release's worktree, or the working tree. */
export type Version = 'previous' | 'current';

export interface RunningProcess {
  /** Catalog name and version, e.g. `customers-v1@previous#1`. */
  name: string;
  service: ServiceSpec;
  version: Version;
  url: string;
  proc: SpawnedProcess;
}

/**
 * The system as a rolling upgrade sees it: each service's database migrated by either version's
 * migrate entry, replicas of both versions side by side on the same databases, Kafka topics and
 * object storage, and gateways of either version in front of the replicas they are given. What
 * `startSystem` does for one version, with the version of every step chosen by the test.
 */
export class MixedSystem {
  readonly processes: RunningProcess[] = [];
  private serial = 0;

  private constructor(
    private readonly auth: TestAuth,
    private readonly previousRoot: string,
    readonly databaseUrls: Record<string, string>,
    private readonly storageDir: string,
    private readonly topicPrefix: string,
  ) {}

  static async create(label: string, auth: TestAuth, previousRoot: string): Promise<MixedSystem> {
    const server = testDatabaseServerUrl();
    const databaseUrls: Record<string, string> = {};
    for (const service of SERVICES) {
      if (service.database) databaseUrls[service.name] = await ensureDatabase(server, testDatabaseName(`${label}_${service.database}`));
    }
    const storageDir = await mkdtemp(join(tmpdir(), 'erp-upgrade-attachments-'));
    return new MixedSystem(auth, previousRoot, databaseUrls, storageDir, testTopicPrefix(label));
  }

  private root(version: Version): string | undefined {
    return version === 'previous' ? this.previousRoot : undefined;
  }

  /**
   * The working tree's apps start as every other test system's do (TEST_SYSTEM_BUILD: the `e2e`
   * target runs their image builds); the previous release's from its worktree's source, which has
   * no build of its own.
   */
  private readonly currentApp = appLauncher(testSystemBuild());

  /** What every process of either version gets (each reads only what its config declares). */
  private commonEnv(): Record<string, string> {
    return {
      ...this.auth.serviceEnv,
      KAFKA_BROKERS: testKafkaBrokers().join(','),
      KAFKA_TOPIC_PREFIX: this.topicPrefix,
      LOG_LEVEL: 'warn',
      LOG_REQUESTS: 'off',
      LOG_PRETTY: 'false',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      // One object store for both versions' replicas, as one bucket in production.
      STORAGE_DRIVER: 'filesystem',
      STORAGE_DIR: this.storageDir,
      ORPHAN_SWEEP_INTERVAL_SECONDS: '0',
    };
  }

  /**
   * Runs a version's migrate entry on every service's database: the previous release's applies all
   * it has; the current one's the given step (docs/migrations.md).
   */
  async migrate(version: Version, step?: 'expand' | 'contract'): Promise<void> {
    await Promise.all(
      SERVICES.filter((service) => service.database).map((service) => {
        const name = `${service.name}@${version} migrate`;
        const env = { ...this.commonEnv(), DATABASE_URL: this.databaseUrls[service.name] as string };
        const args = step ? [`--phase=${step}`] : [];
        const root = this.root(version);
        if (root) return runTs(name, `${service.dir}/src/migrate.ts`, env, args, root);
        return untilExitedOk(this.currentApp(service, env, { quiet: true, args }, name, 'migrate'));
      }),
    );
  }

  /** The running replicas of a service (both versions), as a Kubernetes Service would list its pods. */
  replicasOf(serviceName: string): RunningProcess[] {
    return this.processes.filter((p) => p.service.name === serviceName);
  }

  /** Starts one replica of a service at a version; it calls the replicas of its callees running now. */
  async startService(serviceName: string, version: Version): Promise<RunningProcess> {
    const service = SERVICES.find((s) => s.name === serviceName);
    if (!service) throw new Error(`no service ${serviceName}`);
    const calls = Object.fromEntries(
      (service.calls ?? []).map((called) => {
        const variable = SERVICES.find((s) => s.name === called)?.gatewayVariable as string;
        return [variable, this.replicasOf(called).map((p) => p.url).join(',')];
      }),
    );
    const env = { ...this.commonEnv(), ...calls, ...(service.env ?? {}), DATABASE_URL: await this.serviceDatabaseUrl(service, version) };
    return this.launch(service, version, env);
  }

  /**
   * The login each version's replicas connect as, as the release notes tell a platform team to
   * roll out: the previous release as the owner (its service scope runs as the login), this one as
   * the runtime login, once its expand step has made the service role (docs/platform-teams.md,
   * "Database logins").
   */
  private async serviceDatabaseUrl(service: ServiceSpec, version: Version): Promise<string> {
    const ownerUrl = this.databaseUrls[service.name] as string;
    if (version === 'previous') return ownerUrl;
    return ensureRuntimeLogin(testDatabaseServerUrl(), databaseNameOf(ownerUrl) as string);
  }

  /** Starts a gateway at a version in front of the given replicas of every service. */
  async startGateway(version: Version, replicas: (service: string) => RunningProcess[]): Promise<RunningProcess> {
    const upstreams = Object.fromEntries(
      SERVICES.flatMap((s) => (s.gatewayVariable ? [[s.gatewayVariable, replicas(s.name).map((p) => p.url).join(',')]] : [])),
    );
    return this.launch(GATEWAY, version, { ...this.commonEnv(), ...upstreams });
  }

  private async launch(service: ServiceSpec, version: Version, env: Record<string, string>): Promise<RunningProcess> {
    const port = await freePort();
    const name = `${service.name}@${version}#${++this.serial}`;
    const root = this.root(version);
    const processEnv = { ...env, PORT: String(port), HOST: '127.0.0.1' };
    const options = { quiet: true, nodeArgs: service.nodeArgs };
    const proc = root ? spawnTs(name, `${service.dir}/src/main.ts`, processEnv, { ...options, root }) : this.currentApp(service, processEnv, options, name);
    const running = { name, service, version, url: `http://127.0.0.1:${port}`, proc };
    this.processes.push(running);
    await waitForReady(`${running.url}/health/ready`, proc);
    return running;
  }

  /** Stops a process as Kubernetes stops a pod (SIGTERM, drain); it leaves the replica lists. */
  async stop(process: RunningProcess): Promise<void> {
    this.processes.splice(this.processes.indexOf(process), 1);
    await process.proc.stop('SIGTERM', 30_000);
  }

  async close(): Promise<void> {
    await Promise.all(this.processes.splice(0).map((p) => p.proc.stop('SIGTERM')));
    const server = testDatabaseServerUrl();
    for (const url of Object.values(this.databaseUrls)) await dropDatabase(server, decodeURIComponent(new URL(url).pathname.slice(1)));
    await rm(this.storageDir, { recursive: true, force: true });
  }
}
