import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { SeededRandom } from '../data/random';
import { quantile } from './http';
import { round, type LoadMeasurement } from './load';
import { cpuTimes } from './process-memory';
import type { BenchContext } from './scenario';

export interface MixedRequest {
  method: 'GET' | 'PUT' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface MixedAnswer {
  status: number;
  etag: string | undefined;
}

/** Sends one request to a service (by key) and records it under the operation's name. */
export type Send = (operation: string, service: string, request: MixedRequest) => Promise<MixedAnswer>;

/** One kind of client action, e.g. "read the ETag, then PATCH with If-Match" (it may send several requests). */
export interface MixedOperation {
  name: string;
  weight: number;
  run(send: Send, random: SeededRandom): Promise<void>;
}

/** Where a target sends each service's requests (the gateway for all, or each service directly). */
export interface MixedTarget {
  name: string;
  baseUrls: Record<string, string>;
  headers: Record<string, string>;
}

/** Statuses that are an expected outcome, counted but neither success nor error (412: a lost If-Match race). */
const EXPECTED = new Set([412]);

class Tally {
  readonly latencies = new Map<string, number[]>();
  readonly statuses = new Map<string, Record<string, number>>();
  readonly errors = new Map<string, number>();
  seconds = 0;
  cpuMs: Record<string, number> = {};

  record(operation: string, status: number, ms: number): void {
    if (!this.latencies.has(operation)) this.latencies.set(operation, []);
    this.latencies.get(operation)?.push(ms);
    const counts = this.statuses.get(operation) ?? {};
    counts[String(status)] = (counts[String(status)] ?? 0) + 1;
    this.statuses.set(operation, counts);
  }

  error(operation: string): void {
    this.errors.set(operation, (this.errors.get(operation) ?? 0) + 1);
  }

  /** One operation's figures, or every request's (`operation` undefined). */
  measurement(target: string, operation?: string): LoadMeasurement {
    const names = operation ? [operation] : [...new Set([...this.latencies.keys(), ...this.errors.keys()])];
    const latencies = names.flatMap((n) => this.latencies.get(n) ?? []);
    const statusCounts: Record<string, number> = {};
    for (const n of names) for (const [status, count] of Object.entries(this.statuses.get(n) ?? {})) statusCounts[status] = (statusCounts[status] ?? 0) + count;
    const count = (test: (status: number) => boolean) =>
      Object.entries(statusCounts).reduce((sum, [status, n]) => sum + (test(Number(status)) ? n : 0), 0);
    const ok = count((s) => s >= 200 && s < 300);
    const errors = names.reduce((sum, n) => sum + (this.errors.get(n) ?? 0), 0);
    return {
      target,
      requests: latencies.length + errors,
      rps: round(ok / this.seconds),
      p50Ms: round(quantile(latencies, 0.5), 1),
      p99Ms: round(quantile(latencies, 0.99), 1),
      meanMs: round(latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length), 1),
      errors,
      non2xx: count((s) => (s < 200 || s >= 300) && !EXPECTED.has(s)),
      statusCounts,
      bytesPerSecond: 0,
      durationSeconds: round(this.seconds),
      ...(operation ? {} : { cpuMsPerRequest: Object.fromEntries(Object.entries(this.cpuMs).map(([p, ms]) => [p, round(ms / Math.max(1, ok))])) }),
    };
  }
}

/** `clients` concurrent clients, each doing one operation after the other (picked by weight, seeded) until the time is up. */
async function runClients(
  target: MixedTarget,
  pools: Map<string, Pool>,
  operations: MixedOperation[],
  clients: number,
  seconds: number,
  seed: number,
  tally: Tally,
): Promise<void> {
  const send: Send = async (operation, service, request) => {
    const pool = pools.get(service);
    if (!pool) throw new Error(`no base URL for ${service}`);
    const began = performance.now();
    try {
      const answer = await pool.request({ ...request, headers: { ...target.headers, ...request.headers } });
      await answer.body.dump();
      tally.record(operation, answer.statusCode, performance.now() - began);
      const etag = answer.headers['etag'];
      return { status: answer.statusCode, etag: Array.isArray(etag) ? etag[0] : etag };
    } catch (error) {
      tally.error(operation);
      throw error;
    }
  };
  const weighted = operations.map((o) => [o, o.weight] as const);
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const random = new SeededRandom(seed + i);
      while (performance.now() < deadline) {
        await random.weighted(weighted).run(send, random).catch(() => undefined); // counted by send
      }
    }),
  );
  tally.seconds += (performance.now() - started) / 1000;
}

/**
 * Mixed load: `clients` concurrent clients (one keep-alive connection each) against each target,
 * all targets alternating over `rounds` rounds of durationSeconds / rounds (after a warm-up each),
 * as measureTargets does for single requests. Returns, per target, every request's figures
 * (`all`, with Node CPU per 2xx answer) and each operation's, with the status counts; throughput
 * counts 2xx only, a 412 is an expected outcome (counted, not an error).
 */
export async function measureMixed(
  context: BenchContext,
  targets: MixedTarget[],
  operations: MixedOperation[],
  clients: number,
): Promise<Array<{ target: string; all: LoadMeasurement; operations: Record<string, LoadMeasurement> }>> {
  const rounds = Math.max(1, context.load.rounds);
  const tallies = targets.map(() => new Tally());
  const poolsOf = targets.map(
    (t) => new Map(Object.entries(t.baseUrls).map(([service, url]) => [service, new Pool(url, { connections: clients, pipelining: 1 })])),
  );
  try {
    if (context.load.warmupSeconds > 0) {
      for (const [i, target] of targets.entries()) await runClients(target, poolsOf[i], operations, clients, context.load.warmupSeconds, context.seed, new Tally());
    }
    for (let r = 0; r < rounds; r++) {
      for (const [i, target] of targets.entries()) {
        const before = cpuTimes(context.pids);
        await runClients(target, poolsOf[i], operations, clients, context.load.durationSeconds / rounds, context.seed + 1000 * (r + 1), tallies[i]);
        const after = cpuTimes(context.pids);
        for (const [name, ms] of Object.entries(before)) {
          const end = after[name];
          if (ms !== null && end !== null) tallies[i].cpuMs[name] = (tallies[i].cpuMs[name] ?? 0) + end - ms;
        }
      }
    }
  } finally {
    for (const pools of poolsOf) for (const pool of pools.values()) await pool.close();
  }
  return targets.map((target, i) => ({
    target: target.name,
    all: tallies[i].measurement(target.name),
    operations: Object.fromEntries(
      [...new Set([...tallies[i].latencies.keys(), ...tallies[i].errors.keys()])].sort().map((n) => [n, tallies[i].measurement(target.name, n)]),
    ),
  }));
}
