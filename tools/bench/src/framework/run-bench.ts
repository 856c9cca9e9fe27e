import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { generateDevKeyPair } from '@erp/auth';
import { type AppBuild, startSystem, type RunningSystem } from '@erp/dev';
import { findDatabaseServerPid } from './database-server-cpu';
import type { BenchContext, BenchScenario, LoadSettings, ScenarioReport } from './scenario';

export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  machine: MachineInfo;
  load: LoadSettings;
  seed: number;
  /** Extra environment the system's processes ran with (e.g. LOG_LEVEL). */
  systemEnv: Record<string, string>;
  scenarios: ScenarioReport[];
}

export interface RunBenchOptions extends ScenarioRunOptions {
  /** PostgreSQL server the system's databases are created on. */
  databaseServerUrl: string;
  /** Database name per service database (each run should use fresh ones). */
  databaseName: (serviceDatabase: string) => string;
  kafkaBrokers?: string[];
  /** Run the apps from source (default) or from their image builds (see startSystem's `build`). */
  build?: AppBuild;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

export interface ScenarioRunOptions {
  scenarios: BenchScenario[];
  load: LoadSettings;
  options?: Record<string, string>;
  seed?: number;
  systemEnv?: Record<string, string>;
  log?: (line: string) => void;
}

async function databaseServerPidOf(system: RunningSystem): Promise<number | undefined> {
  const url = Object.values(system.databaseUrls)[0];
  return url ? findDatabaseServerPid(url) : undefined;
}

/** Runs the scenarios one after the other against a system that is already running. */
export async function runScenarios(system: RunningSystem, options: ScenarioRunOptions): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 42;
  const context: BenchContext = {
    gatewayUrl: system.baseUrl,
    serviceUrls: system.serviceUrls,
    databaseUrls: system.databaseUrls,
    pids: Object.fromEntries(system.processes.map((p) => [p.name, p.child.pid ?? 0])),
    databaseServerPid: await databaseServerPidOf(system),
    keys: system.keys,
    kafkaBrokers: system.kafkaBrokers,
    load: options.load,
    options: options.options ?? {},
    seed,
    log,
  };
  const reports: ScenarioReport[] = [];
  for (const scenario of options.scenarios) {
    log(`scenario ${scenario.name}: ${scenario.title}`);
    reports.push(await scenario.run(context));
  }
  return {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: machineInfo(),
    load: options.load,
    seed,
    systemEnv: options.systemEnv ?? {},
    scenarios: reports,
  };
}

/** The system as the bench starts it: every service and the gateway as processes, free ports. */
export function startBenchSystem(options: {
  databaseServerUrl: string;
  databaseName: (serviceDatabase: string) => string;
  systemEnv?: Record<string, string>;
  /** Kafka to use; absent: startSystem runs the dev broker. */
  kafkaBrokers?: string[];
  /** Services to start (default: all), e.g. the union of the scenarios' `services`. */
  services?: string[];
  build?: AppBuild;
}): Promise<RunningSystem> {
  return startSystem({
    databaseServerUrl: options.databaseServerUrl,
    dataDir: '.data/bench',
    gatewayPort: 0,
    servicePorts: 'free',
    keys: generateDevKeyPair(),
    // BENCH_VERBOSE=1 shows the services' output (e.g. with ERP_NODE_ARGS=--trace-gc).
    quiet: process.env['BENCH_VERBOSE'] !== '1',
    databaseName: options.databaseName,
    kafkaBrokers: options.kafkaBrokers,
    services: options.services,
    build: options.build,
    // Its own topics and consumer groups: on a broker other systems share (the tests' broker, or
    // KAFKA_BROKERS) another system's consumers in the same group would take its events. Two bench
    // suites side by side in `nx test bench` lost a customer event to each other this way.
    env: { LOG_PRETTY: 'false', KAFKA_TOPIC_PREFIX: `bench.${randomBytes(4).toString('hex')}.`, ...options.systemEnv },
  });
}

/** Starts the real system, runs the scenarios against it one after the other, and stops it. */
export async function runBench(options: RunBenchOptions): Promise<BenchResults> {
  options.log?.('starting the system');
  const services = [...new Set(options.scenarios.flatMap((s) => s.services))];
  const systemEnv = Object.assign({}, ...options.scenarios.map((s) => s.systemEnv ?? {}), options.systemEnv) as Record<string, string>;
  const system = await startBenchSystem({ ...options, services, systemEnv });
  try {
    return await runScenarios(system, options);
  } finally {
    await system.stop();
  }
}
