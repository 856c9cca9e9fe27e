import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECT_TIMEOUT_MS, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@erp/database';
import { type RunningSystem, startWebhookListener, type ListenedDelivery, type WebhookListener } from '@erp/dev';
import { startTestSystem } from '@erp/dev/testing';
import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { TestAuth, waitUntil } from '@erp/testing';
import { type Outcome, startLoad, watchReadiness } from './cases/outage';
import { writeFigures } from './support/figures';
import { A, FULL, putInventoryItems, REQUEST_TIMEOUT_MS } from './support/system';

/** Outage lengths: the issue's 10 s / 30 s with RELIABILITY_FULL=1, shorter in CI. */
const DB_OUTAGE_MS = FULL ? 10_000 : 5_000;
const KAFKA_OUTAGE_MS = FULL ? 30_000 : 10_000;
/** Load before and after each outage. */
const STEADY_MS = 3_000;
const WORKERS = 4;
/**
 * A request failing for want of the database must answer within the pool's connect timeout
 * (CONNECT_TIMEOUT_MS, 5 s: the worst case, a wait for a connection) plus what a healthy request
 * costs on this machine right now (the slowest served in the steady phase before, at least 1 s):
 * on a 2-core CI machine saturated by other suites, a healthy request alone can take seconds.
 */
function failFastBoundMs(outcomes: Outcome[]): number {
  const served = outcomes.filter((o) => o.phase === 'db-before' && o.answered).map((o) => o.ms);
  return CONNECT_TIMEOUT_MS + Math.max(1_000, ...served);
}
/** After PostgreSQL or Kafka is back, the system must be whole again within this. */
const RECOVERY_MS = 90_000;
const DATABASE_SERVICES = ['customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3', 'webhook-publisher'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Outage: the system runs on a PostgreSQL server and a Kafka broker of this suite's own (the
 * run's shared ones serve other suites in parallel), which the cases stop and start under a
 * steady load through the gateway. No app process is restarted.
 */
describe('outage: PostgreSQL and Kafka go away under load', () => {
  let dataDir: string;
  let postgres: EmbeddedPostgresHandle;
  let broker: KafkaDevBroker;
  let system: RunningSystem;
  let stopSystem: () => Promise<void>;
  let listener: WebhookListener;
  let headers: Record<string, string>;
  let pids: Record<string, number | undefined>;
  let phase = 'setup';
  const deliveries: ListenedDelivery[] = [];
  const outcomes: Outcome[] = [];
  const figures: Record<string, unknown> = {};
  const auth = new TestAuth();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'erp-outage-pg-'));
    postgres = await startEmbeddedPostgres({ dataDir, persistent: true });
    broker = await startKafkaDevBroker({
      port: 0,
      logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
    const start = () =>
      startTestSystem('rel_outage', {
        auth,
        databaseServerUrl: postgres.adminUrl,
        kafkaBrokers: broker.brokers,
        env: { LOG_LEVEL: 'error', LOG_REQUESTS: 'off', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true' },
      });
    // startSystem gives each process 60 s to get ready; six services starting at once on a
    // saturated 2-core CI machine can miss that. A failed start stops what it started, so try once more.
    ({ system, stop: stopSystem } = await start().catch((error: unknown) => {
      console.warn(`outage: system start failed (${String(error)}); trying once more`);
      return start();
    }));
    pids = Object.fromEntries(system.processes.map((p) => [p.name, p.child.pid]));
    headers = { ...(await auth.headers({ company: A })), 'content-type': 'application/json' };
    listener = await startWebhookListener({
      baseUrl: system.baseUrl,
      token: await auth.token({ companies: [A] }),
      companyId: A,
      eventTypes: ['CUSTOMER_CREATED', 'SALESORDER_UPDATED'],
      onDelivery: (delivery) => deliveries.push(delivery),
    });
  }, 420_000);

  afterAll(async () => {
    writeFigures('outage', figures);
    await listener?.stop().catch(() => undefined);
    await stopSystem?.();
    await broker?.stop();
    await postgres?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }, 120_000);

  /** A customer the sales-orders service has learned (from its event), and one order per worker. */
  async function createOrders(): Promise<Array<{ type: string; orderId: string }>> {
    const customer = await fetch(`${system.baseUrl}/v1/customer`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Outage customer', currencyId: 'NOK' }),
    });
    expect(customer.status).toBe(201);
    const number = String(((await customer.json()) as { number: string }).number);
    await putInventoryItems((path, init) => fetch(`${system.baseUrl}${path}`, init), headers, ['ITEM-1']);
    return Promise.all(
      Array.from({ length: WORKERS }, async (_unused, index) => {
        let order: { type: string; orderId: string } | undefined;
        await waitUntil('an order for a new customer', async () => {
          const response = await fetch(`${system.baseUrl}/api/v3/SalesOrders`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              type: 'SO',
              customer: { id: number },
              description: `Outage order ${index}`,
              orderLines: [{ inventoryId: 'ITEM-1', quantity: 1, unitPrice: '1.00' }],
            }),
          });
          if (response.status === 201) order = (await response.json()) as { type: string; orderId: string };
          else await response.text(); // 400 until the customer's event has arrived
          return order !== undefined;
        }, 30_000);
        return { type: order!.type, orderId: order!.orderId };
      }),
    );
  }

  function readinessFigures(samples: ReturnType<typeof watchReadiness>['samples'], backAt: number) {
    return Object.fromEntries(
      DATABASE_SERVICES.map((service) => {
        const own = samples.filter((s) => s.service === service);
        const firstRed = own.find((s) => s.status !== 200);
        const greenAgain = own.find((s) => s.at >= backAt && s.status === 200);
        return [service, { red: firstRed !== undefined, greenMsAfterBack: greenAgain ? greenAgain.at - backAt : undefined }];
      }),
    );
  }

  it('PostgreSQL down: 503 + Retry-After fast, readiness red then green, then served again', async () => {
    const orders = await createOrders();
    const load = startLoad({ baseUrl: system.baseUrl, headers, orders, requestTimeoutMs: REQUEST_TIMEOUT_MS }, () => phase);
    const readiness = watchReadiness(Object.fromEntries(DATABASE_SERVICES.map((s) => [s, system.serviceUrls[s]])));
    try {
      phase = 'db-before';
      await sleep(STEADY_MS);
      phase = 'db-down';
      await postgres.stop();
      await sleep(DB_OUTAGE_MS);
      phase = 'db-restarting';
      postgres = await startEmbeddedPostgres({ dataDir, persistent: true, port: postgres.port });
      const backAt = Date.now();
      phase = 'db-recovering';
      const readyMs = await waitUntil(
        'every service ready again',
        () => DATABASE_SERVICES.every((service) => readiness.samples.some((s) => s.service === service && s.at >= backAt && s.status === 200)),
        RECOVERY_MS,
      );
      phase = 'db-after';
      await sleep(STEADY_MS);
      await load.stop();
      await readiness.stop();
      outcomes.push(...load.outcomes);

      const down = load.outcomes.filter((o) => o.phase === 'db-down');
      const failed = down.filter((o) => !o.answered);
      figures['database'] = {
        outageMs: DB_OUTAGE_MS,
        requestsDuringOutage: down.length,
        answered503: failed.filter((o) => o.status === 503).length,
        served: down.length - failed.length,
        maxFailedMs: Math.max(0, ...failed.map((o) => o.ms)),
        medianFailedMs: failed.map((o) => o.ms).sort((x, y) => x - y)[Math.floor(failed.length / 2)],
        maxServedMsBefore: Math.max(0, ...load.outcomes.filter((o) => o.phase === 'db-before' && o.answered).map((o) => o.ms)),
        failFastBoundMs: failFastBoundMs(load.outcomes),
        retryAfter: [...new Set(failed.map((o) => o.retryAfter))],
        readyMsAfterRestart: readyMs,
        readiness: readinessFigures(readiness.samples, backAt),
        afterRecovery: load.outcomes.filter((o) => o.phase === 'db-after').length,
      };

      // Fail fast with the documented 503: never a hang, a connection error or another status.
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.filter((o) => o.problem !== undefined || o.error !== undefined)).toEqual([]);
      expect(Math.max(...failed.map((o) => o.ms))).toBeLessThan(failFastBoundMs(load.outcomes));
      // Readiness red during the outage, green again after, for every service with a database.
      for (const [service, seen] of Object.entries(readinessFigures(readiness.samples, backAt))) {
        expect({ service, ...seen, greenMsAfterBack: seen.greenMsAfterBack !== undefined }).toEqual({ service, red: true, greenMsAfterBack: true });
      }
      // Served again, without restarting anything.
      const after = load.outcomes.filter((o) => o.phase === 'db-after');
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((o) => !o.answered)).toEqual([]);
      // Whatever the phase, nothing but a 2xx or the documented 503.
      expect(load.outcomes.filter((o) => !o.answered && (o.problem !== undefined || o.error !== undefined))).toEqual([]);
    } finally {
      phase = 'between';
      await load.stop();
      await readiness.stop();
    }
  }, 300_000);

  it('Kafka down: writes keep working, readiness degraded then up, every queued event delivered afterwards', async () => {
    const orders = await createOrders();
    const load = startLoad({ baseUrl: system.baseUrl, headers, orders, requestTimeoutMs: REQUEST_TIMEOUT_MS }, () => phase);
    const readiness = watchReadiness(Object.fromEntries(DATABASE_SERVICES.map((s) => [s, system.serviceUrls[s]])));
    let backAt = 0;
    try {
      phase = 'kafka-before';
      await sleep(STEADY_MS);
      phase = 'kafka-down';
      await broker.stop({ keepState: true });
      await sleep(KAFKA_OUTAGE_MS);
      phase = 'kafka-after';
      await broker.restart();
      backAt = Date.now();
      await sleep(STEADY_MS);
    } finally {
      await load.stop();
      await readiness.stop();
      phase = 'done';
    }
    outcomes.push(...load.outcomes);

    // Every change the API acknowledged, in either case, reaches the webhook receiver.
    const committed = outcomes.filter((o) => o.committed !== undefined);
    const expected = new Set(committed.map((o) => `${o.op === 'patchOrder' ? 'SALESORDER_UPDATED' : 'CUSTOMER_CREATED'} ${o.committed}`));
    const received = () =>
      new Set(
        deliveries
          .filter((d) => d.verified)
          .map((d) => {
            const data = (d.body.data ?? {}) as Record<string, unknown>;
            return d.body.type === 'SALESORDER_UPDATED'
              ? `SALESORDER_UPDATED ${String(data['orderId'])}@${String(data['version'])}`
              : `${d.body.type} ${String(data['number'])}`;
          }),
      );
    const missing = () => [...expected].filter((key) => !received().has(key));
    const delivered = await waitUntil('every committed event delivered', () => missing().length === 0, RECOVERY_MS, 500).then(
      () => true,
      () => false,
    );
    const deliveredMsAfterBrokerBack = Date.now() - backAt;

    const down = load.outcomes.filter((o) => o.phase === 'kafka-down');
    const kafkaStates = (from: number, to: number) => [
      ...new Set(readiness.samples.filter((s) => s.at >= from && s.at < to).map((s) => `${s.status} kafka=${s.checks['kafka'] ?? '-'}`)),
    ];
    figures['kafka'] = {
      outageMs: KAFKA_OUTAGE_MS,
      requestsDuringOutage: down.length,
      served: down.filter((o) => o.answered).length,
      writesDuringOutage: down.filter((o) => o.committed !== undefined).length,
      readinessDuringOutage: kafkaStates(backAt - KAFKA_OUTAGE_MS + 2_000, backAt),
      readinessAfter: kafkaStates(backAt + STEADY_MS - 1_000, Infinity),
      committedEventsBothCases: expected.size,
      deliveredMsAfterBrokerBack: delivered ? deliveredMsAfterBrokerBack : undefined,
      missing: missing()
        .slice(0, 10)
        .map((key) => `${key} (${committed.find((o) => key.endsWith(` ${o.committed}`))?.phase})`),
    };

    // Reads and writes keep working: events wait in the outbox.
    expect(down.length).toBeGreaterThan(0);
    expect(down.filter((o) => !o.answered)).toEqual([]);
    expect(down.filter((o) => o.committed !== undefined).length).toBeGreaterThan(0);
    expect(missing()).toEqual([]);
    // Readiness stays 200 while Kafka is away (events wait in the outbox; see docs/api-conventions.md),
    // shows the relay's Kafka as degraded, and up again once it publishes.
    const during = readiness.samples.filter((s) => s.at >= backAt - KAFKA_OUTAGE_MS && s.at < backAt);
    expect(during.filter((s) => s.status !== 200)).toEqual([]);
    expect(during.some((s) => s.checks['kafka'] === 'degraded')).toBe(true);
    const kafkaChecked = [...new Set(readiness.samples.filter((s) => s.checks['kafka']).map((s) => s.service))];
    await waitUntil(
      'every relay reporting Kafka up',
      async () => {
        const states = await Promise.all(
          kafkaChecked.map(async (service) => {
            const response = await fetch(`${system.serviceUrls[service]}/health/ready`);
            return ((await response.json()) as { details?: { kafka?: { status?: string } } }).details?.kafka?.status;
          }),
        );
        return states.every((state) => state === 'up');
      },
      RECOVERY_MS,
    );
    // Consumers resumed: the sales-orders service learns a customer created now (from its event).
    await createOrders();
    // Nothing was restarted: the same processes, all alive.
    expect(Object.fromEntries(system.processes.map((p) => [p.name, p.child.pid]))).toEqual(pids);
    expect(system.processes.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => p.name)).toEqual([]);
  }, 300_000);
});
