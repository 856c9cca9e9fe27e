import { generateDevKeyPair, signDevToken } from '@erp/auth';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { startSystem, startWebhookListener, type RunningSystem, type WebhookListener } from '@erp/dev';
import { parseBrokers } from '@erp/messaging';
import { join } from 'node:path';
import { Client } from 'pg';
import { performance } from 'node:perf_hooks';
import { summarize } from './outbox/latency-stats';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const COMPANY = '1000001';

/**
 * `npm run bench:webhooks [-- --events=600 --rate=50 --orders=20 --warmup=40]`
 *
 * End-to-end webhook latency: from the commit of a `PATCH /api/v3/SalesOrders/...` (taken as the
 * moment its 200 arrives, an upper bound of the commit time, so figures are slightly low by the
 * response's transfer) to the arrival of the signed SALESORDER_UPDATED at a local receiver. The
 * path is the production one: sales-orders-v3 commits the order and its outbox row, the relay
 * publishes to Kafka, webhook-publisher consumes, writes the delivery, and its worker POSTs.
 * PATCHes go at a steady rate, round-robin over `orders` orders (each order's PATCHes in
 * sequence, with its ETag). Every process runs as `npm start` runs it, on free ports; Kafka is the
 * in-memory dev broker unless KAFKA_BROKERS is set; PostgreSQL is DATABASE_URL's server or a
 * throw-away embedded one. Result: JSON, then one markdown table row, on stdout.
 */
async function main(): Promise<void> {
  const args = new Map<string, number>();
  for (const arg of process.argv.slice(2)) {
    const match = /^--([a-z]+)=(\d+)$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg} (expected --events=N, --rate=N, --orders=N, --warmup=N)`);
    args.set(match[1], Number(match[2]));
  }
  const events = args.get('events') ?? 600;
  const rate = args.get('rate') ?? 50;
  const orders = args.get('orders') ?? 20;
  const warmup = args.get('warmup') ?? 40;
  const log = (line: string) => process.stderr.write(`[bench:webhooks] ${line}\n`);

  let embedded: EmbeddedPostgresHandle | undefined;
  let system: RunningSystem | undefined;
  let listener: WebhookListener | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      log('starting a throw-away embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-webhooks-postgres-${process.pid}`), persistent: false });
      serverUrl = embedded.adminUrl;
    }
    const keys = generateDevKeyPair();
    log('starting customers-v1, sales-orders-v3, webhook-publisher and the gateway');
    system = await startSystem({
      databaseServerUrl: serverUrl,
      dataDir: join(REPO_ROOT, '.data', 'bench-unused'),
      gatewayPort: 0,
      servicePorts: 'free',
      keys,
      quiet: true,
      services: ['customers-v1', 'sales-orders-v3', 'webhook-publisher'],
      databaseName: (name) => `${name}_bench_${process.pid}`,
      kafkaBrokers: process.env['KAFKA_BROKERS'] ? parseBrokers(process.env['KAFKA_BROKERS']) : undefined,
      env: { LOG_LEVEL: 'warn' },
    });
    const base = system.baseUrl;
    const token = await signDevToken(keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read erp:write webhooks:manage' });
    const v1Headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'bench', 'content-type': 'application/json' };
    const v3Headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'content-type': 'application/json' };

    const customer = await fetch(`${base}/v1/customer`, { method: 'POST', headers: v1Headers, body: JSON.stringify({ name: 'Bench AS' }) });
    if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${await customer.text()}`);
    const { number } = (await customer.json()) as { number: string };

    // Orders (retrying until the customer event has reached the sales-order service).
    const state: Array<{ location: string; etag: string; busy: boolean }> = [];
    for (let i = 0; i < orders; i++) {
      for (let deadline = Date.now() + 30_000; ; ) {
        const response = await fetch(`${base}/api/v3/SalesOrders`, {
          method: 'POST',
          headers: v3Headers,
          body: JSON.stringify({ type: 'SO', customer: { id: number }, orderLines: [{ inventoryId: 'ITEM-1', quantity: 1, unitPrice: '10.00' }] }),
        });
        if (response.status === 201) {
          state.push({ location: header(response, 'location'), etag: header(response, 'etag'), busy: false });
          break;
        }
        if (response.status !== 400 || Date.now() > deadline) throw new Error(`order: ${response.status} ${await response.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    const committed = new Map<string, number>();
    const arrived = new Map<string, number>();
    let unverified = 0;
    listener = await startWebhookListener({
      baseUrl: base,
      token,
      companyId: COMPANY,
      eventTypes: ['SALESORDER_UPDATED'],
      onDelivery(delivery) {
        if (!delivery.verified) unverified++;
        const data = delivery.body.data as { orderId: string; version: string };
        const key = `${data.orderId}:${data.version}`;
        if (!arrived.has(key)) arrived.set(key, performance.now());
      },
    });

    const total = warmup + events;
    log(`${orders} orders; ${total} PATCHes at ${rate}/s (first ${warmup} are warm-up)`);
    let sent = 0;
    let skipped = 0;
    const measuredKeys: string[] = [];
    const started = performance.now();
    const inFlight: Array<Promise<void>> = [];
    while (sent < total) {
      const due = started + (sent * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const order = state[sent % orders];
      const index = sent;
      sent++;
      if (order.busy) {
        skipped++;
        continue;
      }
      order.busy = true;
      inFlight.push(
        (async () => {
          const response = await fetch(`${base}${order.location}`, {
            method: 'PATCH',
            headers: { ...v3Headers, 'if-match': order.etag },
            body: JSON.stringify({ description: `update ${index}` }),
          });
          const at = performance.now();
          await response.arrayBuffer();
          order.busy = false;
          if (response.status !== 200) throw new Error(`PATCH ${order.location}: ${response.status}`);
          order.etag = header(response, 'etag');
          const key = `${order.location.split('/').pop()}:${order.etag.replace(/"/g, '')}`;
          committed.set(key, at);
          if (index >= warmup) measuredKeys.push(key);
        })(),
      );
    }
    await Promise.all(inFlight);
    const sendSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 60_000;
    while (measuredKeys.some((key) => !arrived.has(key)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const missing = measuredKeys.filter((key) => !arrived.has(key)).length;
    const latencies = measuredKeys.flatMap((key) => {
      const end = arrived.get(key);
      const start = committed.get(key);
      return end === undefined || start === undefined ? [] : [end - start];
    });
    const summary = summarize(latencies);
    const stages = await stageBreakdown(system.databaseUrls['webhook-publisher']);
    const result = {
      scenario: 'webhook-latency',
      kafka: process.env['KAFKA_BROKERS'] ? 'kafka' : 'dev-broker',
      rate,
      achievedRate: Math.round((measuredKeys.length + warmup) / sendSeconds),
      orders,
      measured: measuredKeys.length,
      skippedBusyOrders: skipped,
      missing,
      unverified,
      latency: summary,
      stages,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      `| webhook PATCH commit -> receiver | ${rate}/s | ${summary.count} | ${summary.p50Ms} ms | ${summary.p95Ms} ms | ${summary.p99Ms} ms | ${summary.maxMs} ms | ${missing} missing |\n`,
    );
    if (missing > 0 || unverified > 0) process.exitCode = 1;
  } finally {
    await listener?.stop().catch(() => undefined);
    await system?.stop();
    await embedded?.stop();
  }
}

function header(response: Response, name: string): string {
  const value = response.headers.get(name);
  if (value === null) throw new Error(`${response.url} answered without ${name}`);
  return value;
}

/**
 * Where the time goes, from the publisher's own records (server clocks, all on this machine):
 * event time (set in the order's transaction) -> stored by the consumer -> first attempt started.
 */
async function stageBreakdown(databaseUrl: string): Promise<Record<string, ReturnType<typeof summarize>>> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ intake: number; pickup: number }>(
      `SELECT extract(epoch FROM e.received_at - e.occurred_at) * 1000 AS intake,
              extract(epoch FROM min(a.attempted_at) - e.received_at) * 1000 AS pickup
       FROM webhook_events e JOIN webhook_delivery_attempts a ON a.event_id = e.id
       WHERE e.type = 'SALESORDER_UPDATED'
       GROUP BY e.id, e.received_at, e.occurred_at`,
    );
    return {
      'commit -> consumed (relay, Kafka, consumer)': summarize(rows.map((r) => Number(r.intake))),
      'consumed -> attempt started (worker)': summarize(rows.map((r) => Number(r.pickup))),
    };
  } finally {
    await sql.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:webhooks failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
