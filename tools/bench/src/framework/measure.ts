import { round, runLoad, type LoadMeasurement } from './load';
import { databaseServerCpuMs } from './database-server-cpu';
import { cpuTimes, sampleMemory, type ProcessMemory } from './process-memory';
import type { BenchContext } from './scenario';

export interface LoadTarget {
  name: string;
  baseUrl: string;
  headers: Record<string, string>;
  /** A fresh request sequence (same seed, same paths) for each run against this target. */
  paths: () => () => string;
  /** Seconds before an unanswered request counts as a timeout (default 10). */
  timeoutSeconds?: number;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Per-round figures folded into one: medians of rates and percentiles, sums of counts. */
export function combineRounds(rounds: LoadMeasurement[]): LoadMeasurement {
  if (rounds.length === 1) return rounds[0];
  const sum = (pick: (m: LoadMeasurement) => number) => rounds.reduce((total, m) => total + pick(m), 0);
  return {
    target: rounds[0].target,
    requests: sum((m) => m.requests),
    rps: round(median(rounds.map((m) => m.rps))),
    p50Ms: round(median(rounds.map((m) => m.p50Ms)), 1),
    p99Ms: round(median(rounds.map((m) => m.p99Ms)), 1),
    meanMs: round(median(rounds.map((m) => m.meanMs))),
    errors: sum((m) => m.errors),
    non2xx: sum((m) => m.non2xx),
    bytesPerSecond: Math.round(median(rounds.map((m) => m.bytesPerSecond))),
    durationSeconds: round(sum((m) => m.durationSeconds)),
    cpuMsPerRequest: Object.fromEntries(
      Object.keys(rounds[0].cpuMsPerRequest ?? {}).map((name) => [
        name,
        round(median(rounds.map((m) => m.cpuMsPerRequest?.[name] ?? NaN))),
      ]),
    ),
    ...optionalMedian('databaseCpuMsPerRequest', rounds),
    ...optionalMedian('loadGeneratorCpuMsPerRequest', rounds),
  };
}

/** `{ [key]: median }` of a figure every round has, else nothing. */
function optionalMedian(key: 'databaseCpuMsPerRequest' | 'loadGeneratorCpuMsPerRequest', rounds: LoadMeasurement[]): Partial<LoadMeasurement> {
  const values = rounds.map((m) => m[key]);
  return values.every((v): v is number => v !== undefined) ? { [key]: round(median(values)) } : {};
}

/**
 * One read case's gateway, direct and baseline measurements: logged one line per target, and the
 * ratios every read scenario reports (to the baseline; scenario 6's gateway/direct: the share of
 * the direct throughput the gateway keeps).
 */
export function readCaseRatios(context: BenchContext, label: string, own: LoadMeasurement[], rpsDigits = 0): Record<string, number> {
  const rps = Object.fromEntries(own.map((m) => [m.target, m.rps]));
  context.log(`${label}:`);
  for (const m of own) context.log(`  ${m.target.padEnd(11)} ${m.rps.toFixed(rpsDigits).padStart(6)} req/s  p50 ${m.p50Ms} ms  p99 ${m.p99Ms} ms`);
  return {
    'gateway/baseline': round(rps['gateway'] / rps['baseline']),
    'direct/baseline': round(rps['direct'] / rps['baseline']),
    'gateway/direct': round(rps['gateway'] / rps['direct']),
  };
}

/**
 * Each target's request sequence (fresh per run), each after a warm-up; all targets alternate
 * over `rounds` rounds, so slow spells of a shared machine spread over every target (and every
 * case, when a scenario passes the targets of all its cases at once). Samples the RSS of every
 * process in `context.pids` meanwhile, and the CPU each used per request while a target ran.
 */
export async function measureTargets(
  context: BenchContext,
  targets: LoadTarget[],
): Promise<{ measurements: LoadMeasurement[]; memory: Record<string, ProcessMemory> }> {
  const { connections, warmupSeconds, durationSeconds } = context.load;
  const rounds = Math.max(1, context.load.rounds);
  const memory = sampleMemory(context.pids);
  const perTarget: LoadMeasurement[][] = targets.map(() => []);
  if (warmupSeconds > 0) {
    for (const target of targets) {
      await runLoad(target.name, { ...target, connections, nextPath: target.paths(), durationSeconds: warmupSeconds });
    }
  }
  for (let r = 0; r < rounds; r++) {
    for (const [i, target] of targets.entries()) {
      const cpuBefore = cpuTimes(context.pids);
      const databaseBefore = context.databaseServerPid ? databaseServerCpuMs(context.databaseServerPid) : null;
      const ownBefore = process.cpuUsage();
      const measured = await runLoad(target.name, {
        ...target,
        connections,
        nextPath: target.paths(),
        durationSeconds: Math.max(1, Math.round(durationSeconds / rounds)),
      });
      const cpuAfter = cpuTimes(context.pids);
      const answered = measured.rps * measured.durationSeconds;
      measured.cpuMsPerRequest = {};
      for (const [name, before] of Object.entries(cpuBefore)) {
        const after = cpuAfter[name];
        if (before !== null && after !== null && answered > 0) measured.cpuMsPerRequest[name] = round((after - before) / answered);
      }
      if (answered > 0) {
        const own = process.cpuUsage(ownBefore);
        measured.loadGeneratorCpuMsPerRequest = round((own.user + own.system) / 1000 / answered);
        const databaseAfter = context.databaseServerPid ? databaseServerCpuMs(context.databaseServerPid) : null;
        if (databaseBefore !== null && databaseAfter !== null) measured.databaseCpuMsPerRequest = round((databaseAfter - databaseBefore) / answered);
      }
      perTarget[i].push(measured);
    }
  }
  const measurements = perTarget.map(combineRounds);
  for (const m of measurements) {
    if (m.errors + m.non2xx > 0) context.log(`  ${m.target}: ${m.errors} errors, ${m.non2xx} non-2xx answers`);
  }
  return { measurements, memory: memory.stop() };
}
