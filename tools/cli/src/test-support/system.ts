import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth, PATIENCE_MS } from '@erp/testing';

export const COMPANY = '1000001';

/**
 * A running system for one CLI suite with only the services it needs (fewer processes start
 * faster). On a machine busy enough that a service misses startSystem's readiness limit, it tries
 * again with fresh databases.
 */
export async function startCliSystem(label: string, services: string[], auth: TestAuth, attempts = 3): Promise<TestSystem> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTestSystem(`${label}${attempt}`, { auth, services });
    } catch (error) {
      if (attempt >= attempts) throw error;
      process.stderr.write(`${label}: system start failed (${error instanceof Error ? error.message : String(error)}); retrying\n`);
    }
  }
}

/** Calls the API directly (test setup and checks), as the company with every scope. */
export function apiCaller(baseUrl: () => string, auth: TestAuth) {
  return async (method: string, path: string, body?: unknown): Promise<Response> => {
    const headers = await auth.headers({ company: COMPANY });
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${baseUrl()}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
}

/** Creates customers through the API (so their events reach the other services), 8 at a time. */
export async function createCustomers(
  call: ReturnType<typeof apiCaller>,
  count: number,
  name: (i: number) => string = (i) => `CLI Customer ${i}`,
): Promise<Array<{ number: string; name: string }>> {
  const customers: Array<{ number: string; name: string }> = [];
  for (let start = 0; start < count; start += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, count - start) }, async (_, k) => {
        const response = await call('POST', '/v1/customer', { name: name(start + k), status: 'Active' });
        if (response.status !== 201) throw new Error(`POST /v1/customer answered ${response.status}: ${await response.text()}`);
        const created = (await response.json()) as { number: string; name: string };
        return { number: created.number, name: created.name };
      }),
    );
    customers.push(...batch);
  }
  return customers;
}

/** Polls until `attempt` gives a value (e.g. a service has learned a record from its event). */
export async function eventually<T>(attempt: () => Promise<T | undefined>, what: string, timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await attempt();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
