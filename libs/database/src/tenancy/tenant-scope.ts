import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whose rows the database work of the current async call chain may touch.
 * - `company`: one company's (HTTP requests; `companyId` '' for routes without one: no rows).
 * - `service`: every company's, as the service's own (owner) identity: background work such as
 *   sweepers, delivery workers, consumers and the outbox relay.
 * Work outside any scope runs as `service` too (see README "The tenant wall").
 */
export type TenantScope = { kind: 'company'; companyId: string } | { kind: 'service' };

const storage = new AsyncLocalStorage<TenantScope>();

/** Runs `work` (and everything it awaits or schedules) limited to `companyId`'s rows. */
export function runAsCompany<T>(companyId: string, work: () => T): T {
  return storage.run({ kind: 'company', companyId }, work);
}

/**
 * Runs `work` across companies, as the service itself. Call it where background work starts, so
 * that it is visible in the code and cannot inherit a request's scope by accident.
 */
export function runAsService<T>(work: () => T): T {
  return storage.run({ kind: 'service' }, work);
}

/** The scope of the current async call chain; `service` outside any. */
export function currentTenantScope(): TenantScope {
  return storage.getStore() ?? { kind: 'service' };
}
