import { performance } from 'node:perf_hooks';
import { quantile } from './http';
import { round, type LoadMeasurement } from './load';
import { combineRounds } from './measure';
import { cpuTimes } from './process-memory';
import type { BenchContext } from './scenario';

/** One kind of transfer of a whole file (an upload, a download, a disk copy); resolves with the file bytes moved. */
export interface TransferTarget {
  name: string;
  transfer: () => Promise<number>;
}

/**
 * Like measureTargets, for transfers of large bodies, where one request is seconds of streaming
 * and autocannon's fixed window would cut most of them off: `concurrency` clients (default 1: the
 * figure is what one stream achieves), each target once to warm up,
 * then all targets alternate over `rounds` rounds, each repeating its transfer for its share of
 * `durationSeconds` (at least once). Per round: transfers/s (`rps`), file bytes/s, p50/p99 ms per
 * transfer, CPU ms per transfer of each process in `context.pids`; folded with combineRounds.
 */
export async function measureTransfers(context: BenchContext, targets: TransferTarget[], concurrency = 1): Promise<LoadMeasurement[]> {
  const rounds = Math.max(1, context.load.rounds);
  const roundMs = (context.load.durationSeconds * 1000) / rounds;
  if (context.load.warmupSeconds > 0) for (const target of targets) await target.transfer();
  const perTarget: LoadMeasurement[][] = targets.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (const [i, target] of targets.entries()) {
      const cpuBefore = cpuTimes(context.pids);
      const times: number[] = [];
      let bytes = 0;
      let errors = 0;
      const start = performance.now();
      // `concurrency` clients, each finishing the transfer it started: nothing is cut off at the end.
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          do {
            const began = performance.now();
            try {
              bytes += await target.transfer();
              times.push(performance.now() - began);
            } catch (error) {
              errors++;
              context.log(`  ${target.name}: ${error instanceof Error ? error.message : String(error)}`);
            }
          } while (performance.now() - start < roundMs);
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const cpuAfter = cpuTimes(context.pids);
      const cpuMsPerRequest: Record<string, number> = {};
      for (const [name, before] of Object.entries(cpuBefore)) {
        const after = cpuAfter[name];
        if (before !== null && after !== null && times.length > 0) cpuMsPerRequest[name] = round((after - before) / times.length);
      }
      perTarget[i].push({
        target: target.name,
        requests: times.length + errors,
        rps: round(times.length / seconds, 3),
        p50Ms: round(quantile(times, 0.5), 1),
        p99Ms: round(quantile(times, 0.99), 1),
        meanMs: round(times.reduce((a, b) => a + b, 0) / Math.max(1, times.length), 1),
        errors,
        non2xx: 0,
        bytesPerSecond: Math.round(bytes / seconds),
        durationSeconds: round(seconds),
        cpuMsPerRequest,
      });
    }
  }
  return perTarget.map(combineRounds);
}
