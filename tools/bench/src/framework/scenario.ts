import type { DevKeyPair } from '@erp/auth';
import type { LoadMeasurement } from './load';
import type { ProcessMemory } from './process-memory';

/** How hard and how long each measurement runs; the smoke test uses tiny values. */
export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /**
   * Targets are measured in turn, `rounds` times (durationSeconds / rounds each), and each
   * figure is the median over the rounds: a burst of other work on a shared machine then hits
   * every target alike instead of one.
   */
  rounds: number;
}

/** What a scenario gets: the running system (real processes) and the run's settings. */
export interface BenchContext {
  /** Gateway base URL. */
  gatewayUrl: string;
  /** Each service's base URL, by service name (`customers-v1`, ...). */
  serviceUrls: Record<string, string>;
  /** Each service's database URL, by service name. */
  databaseUrls: Record<string, string>;
  /** pid of each running process by name (services, gateway); a scenario adds its baselines. */
  pids: Record<string, number>;
  /**
   * The PostgreSQL server's pid when it runs on this machine (the embedded one always does): its
   * CPU per request is measured beside the processes' (`databaseCpuMsPerRequest`).
   */
  databaseServerPid?: number;
  /** The key the system trusts: sign tokens with `signDevToken(keys.privateKeyPem, ...)`. */
  keys: DevKeyPair;
  /** The Kafka the services use: for a scenario that starts a process of its own beside them. */
  kafkaBrokers: string[];
  load: LoadSettings;
  /** Scenario-specific options from the command line (`--customers.sizes=10000,100000`). */
  options: Record<string, string>;
  seed: number;
  log: (line: string) => void;
}

export interface TargetCheck {
  description: string;
  value: number;
  op: '>=' | '<=';
  limit: number;
  met: boolean;
}

/** One data size or variant of a scenario: the same load against each target. */
export interface ScenarioCase {
  name: string;
  /** Free-form facts about the case (rows, result size, ...). */
  facts: Record<string, number | string>;
  /** One per target: `gateway`, `direct`, `baseline`, ... */
  measurements: LoadMeasurement[];
  /** Throughput ratios such as `gateway/baseline`. */
  ratios: Record<string, number>;
  /** Peak RSS of each process during this case. */
  memory: Record<string, ProcessMemory>;
}

export interface ScenarioReport {
  scenario: string;
  title: string;
  cases: ScenarioCase[];
  targets: TargetCheck[];
  /**
   * What the throughput columns count: answered requests per second (default), or file MiB per
   * second (`bytesPerSecond`) for transfers of large bodies, where one request is one file.
   */
  rate?: 'req/s' | 'MiB/s';
  /** Lines printed under the scenario's tables (status counts, single-client timings, ...). */
  notes?: string[];
}

/**
 * A benchmark scenario. Add one by exporting it from a file in tools/bench/src/scenarios/ and
 * listing it in scenarios/index.ts; `npm run bench` runs every listed scenario against one
 * running system, in order.
 */
export interface BenchScenario {
  name: string;
  title: string;
  /** The services it needs (catalog names, tools/dev/src/services.ts); the bench starts only those. */
  services: string[];
  /** Environment the system's processes need for this scenario (e.g. a larger upload limit). */
  systemEnv?: Record<string, string>;
  run(context: BenchContext): Promise<ScenarioReport>;
}

/** A target; a value that could not be measured (NaN, e.g. nothing answered in time) is not met. */
export function check(description: string, value: number, op: '>=' | '<=', limit: number): TargetCheck {
  const met = Number.isFinite(value) && (op === '>=' ? value >= limit : value <= limit);
  return { description, value, op, limit, met };
}
