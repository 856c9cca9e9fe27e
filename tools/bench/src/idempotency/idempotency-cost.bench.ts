import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RunningSystem } from '@erp/dev';
import type { TestAuth } from '@erp/testing';
import { median } from '../framework/measure';

export interface IdempotencyCostOptions {
  system: RunningSystem;
  auth: TestAuth;
  /** Writes per variant per round. */
  writes: number;
  rounds: number;
  /** Writes in flight at once. */
  concurrency: number;
}

export interface IdempotencyCostResult {
  writes: number;
  rounds: number;
  concurrency: number;
  /** Median over rounds of the mean wall time of one write, in ms. */
  unkeyedMs: number;
  keyedMs: number;
  /** keyed / unkeyed, each round against the round beside it; the median. */
  ratio: number;
  /** What a retry of a keyed write costs: its stored answer sent again, in ms (median of rounds). */
  replayMs: number;
}

const COMPANY = '7100001';

/**
 * What an Idempotency-Key costs a write (issue 49: at most 1.15x): `POST /v1/customer` through the
 * gateway, without a key and with a fresh one, in alternating rounds of `writes` at `concurrency`,
 * so both meet the same machine; and what a retry of a keyed write costs (the stored answer read).
 */
export async function runIdempotencyCostBench(options: IdempotencyCostOptions): Promise<IdempotencyCostResult> {
  const headers = { ...(await options.auth.headers({ company: COMPANY })), 'content-type': 'application/json' };
  const url = `${options.system.baseUrl}/v1/customer`;
  let n = 0;
  const bodyOf = () => JSON.stringify({ name: `Bench customer ${++n}`, currencyId: 'NOK', mainAddress: { city: 'Oslo', country: { id: 'NO' } } });
  const write = async (key: string | undefined, body = bodyOf(), replay = false) => {
    const response = await fetch(url, { method: 'POST', headers: key ? { ...headers, 'idempotency-key': key } : headers, body });
    await response.arrayBuffer();
    if (response.status !== 201) throw new Error(`POST /v1/customer answered ${response.status}`);
    if (replay !== (response.headers.get('idempotent-replayed') === 'true')) throw new Error(`POST /v1/customer: replayed is ${response.headers.get('idempotent-replayed')}`);
  };
  const round = async (work: (i: number) => Promise<void>): Promise<number> => {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let i = next++; i < options.writes; i = next++) await work(i);
      }),
    );
    return (performance.now() - started) / options.writes;
  };
  // Warm-up: connections, the prepared statements, JIT.
  await round(() => write(undefined));
  await round(() => write(randomUUID()));
  const unkeyed: number[] = [];
  const keyed: number[] = [];
  const replays: number[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const keys = Array.from({ length: options.writes }, () => randomUUID());
    const bodies = keys.map(() => bodyOf());
    // Alternate which goes first, so neither always meets the warmer machine.
    if (r % 2 === 0) {
      unkeyed.push(await round(() => write(undefined)));
      keyed.push(await round((i) => write(keys[i], bodies[i])));
    } else {
      keyed.push(await round((i) => write(keys[i], bodies[i])));
      unkeyed.push(await round(() => write(undefined)));
    }
    // Each keyed write sent again: its stored answer, nothing done.
    replays.push(await round((i) => write(keys[i], bodies[i], true)));
  }
  const ratios = keyed.map((k, i) => k / (unkeyed[i] as number));
  const round2 = (value: number) => Math.round(value * 100) / 100;
  return {
    writes: options.writes,
    rounds: options.rounds,
    concurrency: options.concurrency,
    unkeyedMs: round2(median(unkeyed)),
    keyedMs: round2(median(keyed)),
    ratio: round2(median(ratios)),
    replayMs: round2(median(replays)),
  };
}
