import { randomUUID } from 'node:crypto';
import { parseRetryAfter } from '@erp/client';

/** A customer the seed created through /v1/customer. */
export interface SeedCustomer {
  number: string;
  status: string;
}

/**
 * Sends a write that names customers the seed has just created. No waiting is needed: the
 * sales-order service asks customers-v1 about a customer its event has not brought yet
 * (docs/cross-service-reads.md).
 */
export function sendNamingCustomers(method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  return seedFetch(url, { method, headers, body: JSON.stringify(body) });
}

/** How long the seed keeps retrying a 503 the gateway asked it to retry (Retry-After). */
const SEED_RETRY_PATIENCE_MS = 120_000;

/**
 * `fetch` for the seed: a 503 with Retry-After (the gateway still learning a service's routes on a
 * busy machine, a replica draining) is tried again after the time it names, with the same
 * Idempotency-Key on a write, so a retried create counts once (docs/api-conventions.md). Every
 * other answer is the caller's, as it came.
 */
export async function seedFetch(url: string, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  if ((method === 'POST' || method === 'PATCH') && !headers.has('idempotency-key')) headers.set('idempotency-key', `seed-${randomUUID()}`);
  const giveUpAt = Date.now() + SEED_RETRY_PATIENCE_MS;
  for (;;) {
    const response = await fetch(url, { ...init, headers });
    // The typed client's reading of Retry-After (delta-seconds or an HTTP date).
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    if (response.status !== 503 || retryAfter === undefined || Date.now() > giveUpAt) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(retryAfter, 1), 10) * 1000));
  }
}
