import { Client } from 'pg';
import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystemOptions } from '@erp/dev/testing';
import { PATIENCE_MS, type TestAuth } from '@erp/testing';

export const A = '1000001';
export const B = '2000002';

/** Full counts with RELIABILITY_FULL=1; CI counts otherwise. */
export const FULL = process.env['RELIABILITY_FULL'] === '1';

/**
 * A case's fast-check seed: fixed in CI so a run is reproducible, random in full mode, and
 * RELIABILITY_SEED=<n> replays or varies either. Printed with the figures.
 */
export function caseSeed(ciSeed: number): number {
  if (process.env['RELIABILITY_SEED']) return Number(process.env['RELIABILITY_SEED']);
  return FULL ? Math.floor(Math.random() * 2 ** 31) : ciSeed;
}

/** Per-request limit: a request that takes longer than this counts as a hang. */
export const REQUEST_TIMEOUT_MS = 15_000;

export interface Harness {
  system: RunningSystem;
  auth: TestAuth;
  /** fetch against the gateway with a per-request timeout; records every status. */
  call(path: string, init?: RequestInit): Promise<Response>;
  statuses: Array<{ method: string; path: string; status: number }>;
  stop(): Promise<void>;
}

/** The whole system (every service, the gateway) as real processes on fresh test databases. */
export async function startHarness(
  label: string,
  env: Record<string, string> = {},
  options: Pick<TestSystemOptions, 'replicas' | 'serviceDatabaseUrl'> = {},
): Promise<Harness> {
  const { system, auth, stop } = await startTestSystem(`rel_${label}`, {
    env: { LOG_LEVEL: 'warn', LOG_REQUESTS: 'off', WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true', ...env },
    ...options,
  });
  const statuses: Harness['statuses'] = [];
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    const response = await fetch(`${system.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    statuses.push({ method: init.method ?? 'GET', path, status: response.status });
    return response;
  };
  return { system, auth, call, statuses, stop };
}

export async function jsonHeaders(h: Harness, company: string, scope?: string): Promise<Record<string, string>> {
  return { ...(await h.auth.headers({ company, ...(scope ? { scope } : {}) })), 'content-type': 'application/json' };
}

/**
 * Creates (or replaces) a company's inventory items through the gateway (`PUT /api/v3/Inventory/{id}`):
 * order lines may only name items that exist. `headers` are the company's JSON request headers.
 */
export async function putInventoryItems(
  call: (path: string, init: RequestInit) => Promise<Response>,
  headers: Record<string, string>,
  inventoryIds: string[],
): Promise<void> {
  for (const id of inventoryIds) {
    const response = await call(`/api/v3/Inventory/${encodeURIComponent(id)}`, { method: 'PUT', headers, body: JSON.stringify({ description: `Item ${id}` }) });
    const text = await response.text();
    if (response.status !== 201 && response.status !== 200) throw new Error(`PUT inventory item ${id}: ${response.status} ${text}`);
  }
}

/** One record of every kind for a company, created through the gateway. */
export interface CompanyFixture {
  company: string;
  customerNumber: string;
  customerName: string;
  invoiceNumber: string;
  orderType: string;
  orderId: string;
  lineId: number;
  /** An inventory item of the company, which order lines may name. */
  inventoryId: string;
  attachmentId: string;
  subscriptionId: string;
}

async function retry<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function expectStatus(response: Response, status: number, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

export async function createFixture(h: Harness, company: string, tag: string): Promise<CompanyFixture> {
  const headers = await jsonHeaders(h, company);
  const customerName = `Secret ${tag} Customer`;
  const customer = await expectStatus(
    await h.call('/v1/customer', { method: 'POST', headers, body: JSON.stringify({ name: customerName, currencyId: 'NOK' }) }),
    201,
    'create customer',
  );
  const customerNumber = String(customer['number']);
  const invoice = await expectStatus(
    await h.call('/v1/supplierInvoice', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        supplier: { number: `SUP-${tag}`, name: `Secret ${tag} Supplier` },
        description: `Secret ${tag} invoice`,
        invoiceLines: [{ description: `Secret ${tag} line`, quantity: 1, unitPrice: 10 }],
      }),
    }),
    201,
    'create invoice',
  );
  const invoiceNumber = String(invoice['referenceNumber']);
  // Order lines name items of the company's catalogue: the fixture's item first.
  const inventoryId = `ITEM-${tag}`;
  await expectStatus(
    await h.call(`/api/v3/Inventory/${inventoryId}`, { method: 'PUT', headers, body: JSON.stringify({ description: `Secret ${tag} item` }) }),
    201,
    'create inventory item',
  );
  const order = await retry('create order', async () => {
    const response = await h.call('/api/v3/SalesOrders', {
      method: 'POST',
      headers: { ...headers },
      body: JSON.stringify({
        type: 'SO',
        customer: { id: customerNumber, order: `PO-${tag}` },
        description: `Secret ${tag} order`,
        orderLines: [{ inventoryId, quantity: 1, unitPrice: '1.00' }],
      }),
    });
    if (response.status === 400) {
      await response.text();
      return undefined;
    }
    return expectStatus(response, 201, 'create order');
  });
  const attachment = await retry('upload attachment', async () => {
    const form = new FormData();
    form.append('file', new Blob([`Secret ${tag} file`]), `secret-${tag}.txt`);
    const { 'content-type': _omit, ...plain } = headers;
    const response = await h.call(`/v1/customer/${customerNumber}/Attachment`, { method: 'POST', headers: plain, body: form });
    if (response.status === 404) {
      await response.text();
      return undefined;
    }
    return expectStatus(response, 201, 'upload attachment');
  });
  const subscription = await expectStatus(
    await h.call('/api/webhooks/subscriptions', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        publisher: 'vendor.net.erp.salesorderservice-publisher',
        eventTypes: ['SALESORDER_CREATED'],
        url: `http://127.0.0.1:9/secret-${tag}`,
        description: `Secret ${tag} subscription`,
      }),
    }),
    201,
    'create subscription',
  );
  const lines = order['lines'] as Array<{ lineId: number }>;
  return {
    company,
    customerNumber,
    customerName,
    invoiceNumber,
    orderType: String(order['type']),
    orderId: String(order['orderId']),
    lineId: lines[0].lineId,
    inventoryId,
    attachmentId: String(attachment['id']),
    subscriptionId: String(subscription['id']),
  };
}

/**
 * Row counts and a digest of every business table: anything a rejected request changed shows. Left
 * out: the bookkeeping of events, migrations and workers, and the stored answers of keyed writes
 * (a refused write sent with an Idempotency-Key keeps its refusal for the key's retries, by design:
 * docs/api-conventions.md "Safe retries").
 */
export async function snapshot(h: Harness): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  for (const [service, url] of Object.entries(h.system.databaseUrls)) {
    const sql = new Client({ connectionString: url });
    await sql.connect();
    try {
      const { rows: tables } = await sql.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
            AND table_name !~ '(outbox|event|deliver|message|inbox|migration|processed|known|attempt|consumer|offset|lease|job|idempotency)'
          ORDER BY 1`,
      );
      for (const { name } of tables) {
        const { rows } = await sql.query<{ n: string; digest: string | null }>(
          `SELECT count(*)::text AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${name}" t`,
        );
        result[`${service}.${name}`] = `${rows[0].n}:${rows[0].digest}`;
      }
    } finally {
      await sql.end();
    }
  }
  return result;
}

/**
 * How far the system's events have come: per service database, the outbox rows not yet published
 * and the events its consumers have processed. Calm is when nothing is left to publish and this
 * stays the same.
 */
async function eventProgress(h: Harness): Promise<{ unpublished: number; progress: string }> {
  let unpublished = 0;
  const progress: string[] = [];
  for (const [service, url] of Object.entries(h.system.databaseUrls)) {
    const sql = new Client({ connectionString: url });
    await sql.connect();
    try {
      const { rows: [tables] } = await sql.query<{ outbox: boolean; processed: boolean }>(
        `SELECT to_regclass('outbox') IS NOT NULL AS outbox, to_regclass('processed_events') IS NOT NULL AS processed`,
      );
      if (tables?.outbox) unpublished += (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL`)).rows[0]?.n ?? 0;
      if (tables?.processed) progress.push(`${service}:${(await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM processed_events`)).rows[0]?.n ?? 0}`);
    } finally {
      await sql.end();
    }
  }
  return { unpublished, progress: progress.join(',') };
}

/**
 * The snapshot once the events of earlier writes have landed: every outbox published, and the
 * consumers' progress and the business tables unchanged between two looks. A refused request is
 * compared against this, not against a database still taking in an accepted write's events
 * (a customer's copy in sales-orders-v3 changing under a test of supplier invoices).
 */
export async function calmSnapshot(h: Harness): Promise<Record<string, string>> {
  const deadline = Date.now() + PATIENCE_MS;
  let previous = '';
  for (;;) {
    const { unpublished, progress } = await eventProgress(h);
    const current = await snapshot(h);
    const state = `${progress}|${JSON.stringify(current)}`;
    if (unpublished === 0 && state === previous) return current;
    if (Date.now() > deadline) throw new Error(`the system did not come to rest within ${PATIENCE_MS} ms: ${unpublished} outbox rows unpublished, consumers at ${progress}`);
    previous = unpublished === 0 ? state : '';
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
