import { setTimeout as pause } from 'node:timers/promises';
import { SERVICES } from '@erp/dev';
import { waitUntil } from '@erp/testing';
import { query } from './cases/crash-database';
import { RolloutLoad } from './cases/rollout-load';
import { writeFigures } from './support/figures';
import { A, type Harness, jsonHeaders, putInventoryItems, startHarness } from './support/system';

/** Replicas per service: a rollout replaces them one at a time while the others serve. */
const REPLICAS = 2;
/** After a replica is ready again, the gateway's readiness watch (every 500 ms) takes it back. */
const BACK_IN_TURN_MS = 1_500;
const ORDER_WORKERS = 2;
/** How long a drain may take before the test kills the process: above SHUTDOWN_TIMEOUT_MS (20 s). */
const DRAIN_WAIT_MS = 30_000;

interface Restart {
  name: string;
  /** SIGTERM until the old process exited (its drain), and its exit code: 0 is a clean drain. */
  drainMs: number;
  exitCode: number | null;
  /** SIGTERM until the new process on the same port was ready. */
  readyMs: number;
  /** The old process's shutdown lines (at LOG_LEVEL=info: each phase's time). */
  shutdownLog?: string[];
}

/**
 * A rollout of every service under steady load (issue 38, "Rollouts invisible to clients"), the
 * way `kubectl apply` replaces a Deployment's pods: one replica at a time, SIGTERM, a new process
 * (the same port, environment and database: `system.restart`), ready before the next one goes.
 * The load reads and writes every service through the gateway, uploads included. A rollout is
 * invisible when every request got its 2xx with the right content: no 503 of a draining replica,
 * no refused or reset connection, no timeout.
 */
describe('rollout: every replica of every service replaced under load', () => {
  let h: Harness;
  let load: RolloutLoad;
  const restarts: Restart[] = [];
  const figures: Record<string, unknown> = { replicas: REPLICAS };

  beforeAll(async () => {
    h = await startHarness('rollout', { LOG_LEVEL: process.env['ROLLOUT_LOG_LEVEL'] ?? 'warn' }, { replicas: REPLICAS });
    const headers = await jsonHeaders(h, A);
    const customerNumbers: string[] = [];
    for (let i = 0; i < 2; i++) {
      const response = await h.call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: `Rollout fixture ${i}`, currencyId: 'NOK' }) });
      customerNumbers.push(String(((await response.json()) as { number: string }).number));
    }
    await putInventoryItems(h.call, headers, ['ITEM-ROLL']);
    // Uploads and orders name customers the other services learn of from events.
    await waitUntil('attachments-v1 and sales-orders-v3 know the fixture customers', async () => {
      const owners = await query<{ n: string }>(h.system.databaseUrls['attachments-v1'], `SELECT count(*)::text AS n FROM attachment_owners WHERE company_id = $1`, [A]);
      const snapshots = await query<{ n: string }>(h.system.databaseUrls['sales-orders-v3'], `SELECT count(*)::text AS n FROM customer_snapshots WHERE company_id = $1`, [A]);
      return owners[0].n === '2' && snapshots[0].n === '2';
    }, 180_000);
    const orders: Array<{ type: string; orderId: string }> = [];
    for (let i = 0; i < ORDER_WORKERS; i++) {
      const response = await h.call('/api/v3/SalesOrders', {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'SO', customer: { id: customerNumbers[i % 2] }, orderLines: [{ inventoryId: 'ITEM-ROLL', quantity: 1, unitPrice: '1.00' }] }),
      });
      const order = (await response.json()) as { type: string; orderId: string };
      orders.push({ type: order.type, orderId: order.orderId });
    }
    load = new RolloutLoad({ baseUrl: h.system.baseUrl, headers: await h.auth.headers({ company: A }), customerNumbers, orders, inventoryId: 'ITEM-ROLL', requestTimeoutMs: 30_000 });
  }, 420_000);

  /** Replaces a service's replicas one at a time: SIGTERM, drained and exited, a new process ready. */
  async function rollOut(service: string): Promise<void> {
    for (let replica = 0; replica < REPLICAS; replica++) {
      const name = replica === 0 ? service : `${service}#${replica + 1}`;
      const old = h.system.processes.find((proc) => proc.name === name);
      if (!old) throw new Error(`no process ${name}`);
      const signalled = Date.now();
      // Longer than SHUTDOWN_TIMEOUT_MS (20 s): a drain that overruns exits 1 by itself.
      await old.stop('SIGTERM', DRAIN_WAIT_MS);
      const drainMs = Date.now() - signalled;
      const exitCode = await old.exited;
      // restart() finds it stopped and starts a new process on its port, environment and database.
      await h.system.restart(name, { signal: 'SIGTERM', readyTimeoutMs: 240_000 });
      const shutdownLog = old.recentOutput().split('\n').filter((line) => /shutting down|shut down|timed out|failed/.test(line));
      restarts.push({ name, exitCode, drainMs, readyMs: Date.now() - signalled, ...(shutdownLog.length > 0 ? { shutdownLog } : {}) });
      await pause(BACK_IN_TURN_MS);
    }
  }

  afterAll(async () => {
    const answers = load?.answers ?? [];
    const count = (key: (a: (typeof answers)[number]) => string) => answers.reduce<Record<string, number>>((all, a) => ({ ...all, [key(a)]: (all[key(a)] ?? 0) + 1 }), {});
    writeFigures('rollout', {
      ...figures,
      restarts,
      requests: answers.length,
      requestsByKind: count((a) => a.what),
      statuses: count((a) => String(a.status)),
      failedRequests: answers.filter((a) => !a.ok).length,
      failures: answers.filter((a) => !a.ok).map((a) => ({ ...a, atMs: a.startedAt - Number(figures['loadStartedAt'] ?? 0) })),
      slowestMs: Math.max(0, ...answers.map((a) => a.ms)),
      // What the gateway said about upstream errors (its warnings), to explain any failure.
      gatewayWarnings: (h?.system.processes.find((proc) => proc.name === 'api-gateway')?.recentOutput() ?? '')
        .split('\n')
        .filter((line) => /upstream unavailable|response errored/.test(line))
        .slice(-20),
    });
    await h?.stop();
  }, 120_000);

  it('answers every request with a 2xx while each replica of each service is replaced in turn', async () => {
    figures['loadStartedAt'] = Date.now();
    load.start();
    await pause(3_000); // steady load first
    const rolloutStarted = Date.now();
    // `kubectl apply` rolls every Deployment at once, each one pod at a time.
    await Promise.all(SERVICES.map((service) => rollOut(service.name)));
    figures['rolloutMs'] = Date.now() - rolloutStarted;
    await pause(3_000); // steady load after
    await load.stop();
    figures['loadMs'] = Date.now() - Number(figures['loadStartedAt']);
    figures['gatewayRetries'] = await gatewayRetries(h.system.baseUrl);

    expect(restarts).toHaveLength(SERVICES.length * REPLICAS);
    // Every old process drained and exited 0 (within SHUTDOWN_TIMEOUT_MS, no SIGKILL).
    expect(restarts.filter((r) => r.exitCode !== 0)).toEqual([]);
    expect(load.failures()).toEqual([]);
    // The load reached every service throughout.
    for (const what of ['create customer', 'create supplier invoice', 'upload attachment', 'download attachment', 'patch sales order', 'create subscription']) {
      expect(load.answers.filter((a) => a.what === what).length).toBeGreaterThan(REPLICAS * SERVICES.length);
    }
  }, 900_000);
});

/** `gateway_upstream_retries_total` by upstream and reason, from the gateway's /metrics. */
async function gatewayRetries(baseUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const retries: Record<string, number> = {};
  for (const match of text.matchAll(/^gateway_upstream_retries_total\{upstream="([^"]+)",reason="([^"]+)"\} (\d+)/gm)) {
    retries[`${match[1]} ${match[2]}`] = Number(match[3]);
  }
  return retries;
}
