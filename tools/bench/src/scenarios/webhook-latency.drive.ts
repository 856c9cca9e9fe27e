import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { signDevToken, type DevKeyPair } from '@erp/auth';
import { startWebhookListener, type WebhookListener } from '@erp/dev';
import { type LatencySummary, summarize } from '../outbox/latency-stats';
import { cpuTimes, type ProcessMemory, sampleMemory } from '../framework/process-memory';

const COMPANY = '1000001';

export interface WebhookLatencyOptions {
  /** The gateway. */
  baseUrl: string;
  /** The webhook publisher's database (for the per-stage breakdown). */
  publisherDatabaseUrl: string;
  keys: DevKeyPair;
  /** pid of each process to watch (RSS peak, CPU per event). */
  pids: Record<string, number>;
  /** PATCHes (so events) per second. */
  rate: number;
  /** How long the measured part runs. */
  seconds: number;
  /** Orders PATCHed round-robin; each one's PATCHes go in sequence (its ETag). */
  orders: number;
  /** Seconds at the rate before measuring. */
  warmupSeconds: number;
  log: (line: string) => void;
}

export interface WebhookLatencyResult {
  rate: number;
  /** PATCHes answered 202 per second over the whole run. */
  achievedRate: number;
  /** Webhooks received per second, first to last measured one. */
  deliveredPerSecond: number;
  orders: number;
  measured: number;
  /** PATCHes not sent because the order's previous PATCH was still in flight. */
  skippedBusyOrders: number;
  /** Answers to the PATCHes by status; only 202s produce events (and are measured). */
  patchStatuses: Record<string, number>;
  missing: number;
  unverified: number;
  /** Commit of the PATCH (its 202 arriving) -> the webhook arriving at the receiver. */
  latency: LatencySummary;
  /** From the publisher's own records: commit -> consumed, consumed -> first attempt. */
  stages: Record<string, LatencySummary>;
  /** CPU ms each process used per measured event. */
  cpuMsPerEvent: Record<string, number>;
  memory: Record<string, ProcessMemory>;
  durationSeconds: number;
}

/**
 * Scenario 5's measurement, shared by `npm run bench` (webhook-latency.scenario.ts) and the
 * standalone `npm run bench:webhooks`: PATCHes of sales orders through the gateway at a steady
 * rate, each one's SALESORDER_UPDATED timed from the PATCH's 202 (an upper bound of its commit,
 * so figures are slightly low by the answer's transfer) to its arrival, verified, at a local
 * receiver subscribed through the API. The path is the production one: sales-orders-v3 commits
 * the order and its outbox row, the relay publishes to Kafka, webhook-publisher consumes and
 * writes the delivery, and its worker POSTs.
 */
export async function runWebhookLatency(o: WebhookLatencyOptions): Promise<WebhookLatencyResult> {
  const base = o.baseUrl;
  const token = await signDevToken(o.keys.privateKeyPem, {
    companies: [COMPANY],
    scope: 'erp:read erp:write webhooks:manage',
    expiresInSeconds: 24 * 3600,
  });
  const v1Headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'bench', 'content-type': 'application/json' };
  const v3Headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'content-type': 'application/json' };

  const customer = await fetch(`${base}/v1/customer`, { method: 'POST', headers: v1Headers, body: JSON.stringify({ name: 'Bench AS' }) });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${await customer.text()}`);
  const { number } = (await customer.json()) as { number: string };
  // The item the orders' lines name: order lines may only reference items of the company's catalogue.
  const item = await fetch(`${base}/api/v3/Inventory/ITEM-1`, { method: 'PUT', headers: v3Headers, body: JSON.stringify({ description: 'Bench item' }) });
  if (item.status !== 201 && item.status !== 200) throw new Error(`inventory item: ${item.status} ${await item.text()}`);

  // Orders, right after the customer (sales orders asks customers-v1 while the event is on its way).
  const state: Array<{ location: string; etag: string; busy: boolean }> = [];
  for (let i = 0; i < o.orders; i++) {
    const response = await fetch(`${base}/api/v3/SalesOrders`, {
      method: 'POST',
      headers: v3Headers,
      body: JSON.stringify({ type: 'SO', customer: { id: number }, orderLines: [{ inventoryId: 'ITEM-1', quantity: 1, unitPrice: '10.00' }] }),
    });
    if (response.status !== 201) throw new Error(`order: ${response.status} ${await response.text()}`);
    state.push({ location: header(response, 'location'), etag: header(response, 'etag'), busy: false });
  }

  const committed = new Map<string, number>();
  const arrived = new Map<string, number>();
  let unverified = 0;
  let listener: WebhookListener | undefined;
  try {
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

    const warmup = Math.round(o.rate * o.warmupSeconds);
    const total = warmup + Math.round(o.rate * o.seconds);
    o.log(`webhook-latency: ${o.orders} orders; ${total} PATCHes at ${o.rate}/s (the first ${warmup} are warm-up)`);
    let sent = 0;
    let skipped = 0;
    let answered = 0;
    const statuses: Record<string, number> = {};
    const measuredKeys: string[] = [];
    const started = performance.now();
    let memory: ReturnType<typeof sampleMemory> | undefined;
    let cpuBefore: Record<string, number | null> = {};
    const inFlight: Array<Promise<void>> = [];
    while (sent < total) {
      if (sent === warmup) {
        memory = sampleMemory(o.pids);
        cpuBefore = cpuTimes(o.pids);
      }
      const due = started + (sent * 1000) / o.rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const order = state[sent % state.length];
      const index = sent;
      sent++;
      if (order.busy) {
        skipped++;
        continue;
      }
      order.busy = true;
      inFlight.push(
        (async () => {
          try {
            const response = await fetch(`${base}${order.location}`, {
              method: 'PATCH',
              headers: { ...v3Headers, 'if-match': order.etag },
              body: JSON.stringify({ description: `update ${index}` }),
            });
            const at = performance.now();
            await response.arrayBuffer();
            statuses[response.status] = (statuses[response.status] ?? 0) + 1;
            // Refused (e.g. 503 from an overloaded machine): counted, no event expected.
            if (response.status !== 202) {
              if (response.status === 412) order.etag = header(await fetch(`${base}${order.location}`, { headers: v3Headers }), 'etag');
              return;
            }
            answered++;
            order.etag = header(response, 'etag');
            const key = `${order.location.split('/').pop()}:${order.etag.replace(/"/g, '')}`;
            committed.set(key, at);
            if (index >= warmup) measuredKeys.push(key);
          } catch (error) {
            statuses['network error'] = (statuses['network error'] ?? 0) + 1;
            o.log(`webhook-latency: PATCH ${order.location} failed: ${error instanceof Error ? error.message : String(error)}`);
          } finally {
            order.busy = false;
          }
        })(),
      );
    }
    await Promise.all(inFlight);
    const sendSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 60_000;
    while (measuredKeys.some((key) => !arrived.has(key)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const cpuAfter = cpuTimes(o.pids);
    const peaks = memory?.stop() ?? {};
    const missing = measuredKeys.filter((key) => !arrived.has(key)).length;
    const latencies = measuredKeys.flatMap((key) => {
      const end = arrived.get(key);
      const start = committed.get(key);
      return end === undefined || start === undefined ? [] : [end - start];
    });
    const arrivals = measuredKeys.flatMap((key) => arrived.get(key) ?? []).sort((a, b) => a - b);
    const firstSent = Math.min(...measuredKeys.map((key) => committed.get(key) ?? Infinity));
    const window = arrivals.length > 1 ? (arrivals[arrivals.length - 1] - firstSent) / 1000 : NaN;
    const cpuMsPerEvent: Record<string, number> = {};
    for (const [name, before] of Object.entries(cpuBefore)) {
      const after = cpuAfter[name];
      if (before !== null && after !== null && measuredKeys.length > 0) cpuMsPerEvent[name] = round((after - before) / measuredKeys.length);
    }
    return {
      rate: o.rate,
      achievedRate: round(answered / sendSeconds),
      deliveredPerSecond: round(arrivals.length / window),
      orders: o.orders,
      measured: measuredKeys.length,
      skippedBusyOrders: skipped,
      patchStatuses: statuses,
      missing,
      unverified,
      latency: summarize(latencies),
      stages: await stageBreakdown(o.publisherDatabaseUrl),
      cpuMsPerEvent,
      memory: peaks,
      durationSeconds: round(sendSeconds),
    };
  } finally {
    await listener?.stop().catch(() => undefined);
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
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
async function stageBreakdown(databaseUrl: string): Promise<Record<string, LatencySummary>> {
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
