import fc from 'fast-check';
import { FULL } from '../support/system';
import type { LoadCounts, OpKind } from './crash-load';

// The crash case's plan (crash.e2e-spec.ts): what is killed, how often, under which load, and the seed.

/** Each service runs its own outbox relay (and consumers) in-process, so killing it kills those too. */
export const KILLED = ['customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3', 'webhook-publisher'];
export const KILLS_PER_SERVICE = FULL ? 4 : 1;
export const COUNTS: LoadCounts = FULL
  ? { customerWorkers: 3, invoiceWorkers: 2, uploadWorkers: 3, largeUploadBytes: 12 * 1024 * 1024 }
  : { customerWorkers: 2, invoiceWorkers: 1, uploadWorkers: 2, largeUploadBytes: 4 * 1024 * 1024 };
/** The service behind each kind of request. */
export const SERVICE_OF: Record<OpKind, string> = {
  createCustomer: 'customers-v1',
  updateCustomer: 'customers-v1',
  createInvoice: 'supplier-invoices-v1',
  upload: 'attachments-v1',
  createOrder: 'sales-orders-v3',
  patchOrder: 'sales-orders-v3',
};
export const ORDER_WORKERS = FULL ? 3 : 2;

/**
 * Seed of the kill plan (which service, when, how far into an upload): fixed in CI so a run is
 * reproducible, random with RELIABILITY_FULL=1; RELIABILITY_SEED=<n> replays any run. Printed.
 */
export const SEED = process.env['RELIABILITY_SEED'] ? Number(process.env['RELIABILITY_SEED']) : FULL ? Math.floor(Math.random() * 2 ** 31) : 20261121;

/** Orphan sweep settings of the run (the minimum age is one minute). */
export const ORPHAN_MAX_AGE_MS = 60_000;
export const ORPHAN_SWEEP_INTERVAL_S = 5;

/** Per killed service, its kills in order: the pause before each, and for attachments-v1 how far into a large upload it lands. */
export type KillPlan = Record<string, Array<{ pauseMs: number; uploadFraction: number }>>;

export function killPlan(seed: number): KillPlan {
  const kills = fc.array(
    fc.record({ pauseMs: fc.integer({ min: 500, max: 6_000 }), uploadFraction: fc.double({ min: 0.1, max: 0.9, noNaN: true }) }),
    { minLength: KILLS_PER_SERVICE, maxLength: KILLS_PER_SERVICE },
  );
  const [plan] = fc.sample(fc.record(Object.fromEntries(KILLED.map((service) => [service, kills]))), { seed, numRuns: 1 });
  return plan;
}

export interface Kill {
  service: string;
  atMs: number;
  pid?: number;
  restartedPid?: number;
  /** Restart until ready, ms. */
  downMs: number;
  midUploadAt?: string;
  pendingUploadsAfterKill?: number;
}

/** How many times each value occurs. */
export function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
