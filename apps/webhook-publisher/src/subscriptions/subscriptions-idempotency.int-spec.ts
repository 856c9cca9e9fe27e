import { randomUUID } from 'node:crypto';
import { describeIdempotentWriteRules, type IdempotentWriteFamily, type KeyedWriteRequest } from '@erp/testing';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { startWebhooksTestApp, type WebhooksTestApp } from '../testing/webhooks-test-app';

const A = '1000001';
const B = '2000002';
const BASE = '/api/webhooks/subscriptions';
let t: WebhooksTestApp;

/** Subscriptions, their settings and secrets, and the deliveries queued, of a company. */
async function effects(company: string): Promise<Record<string, number | string>> {
  const { rows } = await t.sql.query<{ subscriptions: number; state: string; deliveries: number }>(
    `SELECT (SELECT count(*)::int FROM webhook_subscriptions WHERE company_id = $1) AS subscriptions,
            (SELECT coalesce(md5(string_agg(url || event_types::text || secret || coalesce(description, ''), ',' ORDER BY id)), '')
               FROM webhook_subscriptions WHERE company_id = $1) AS state,
            (SELECT count(*)::int FROM webhook_deliveries WHERE company_id = $1) AS deliveries`,
    [company],
  );
  return rows[0]!;
}

/** A subscription of the company, made through the API. */
async function subscription(company: string): Promise<string> {
  const headers = { ...(await t.auth.headers({ company, applicationType: null })), 'content-type': 'application/json' };
  const response = await fetch(`${t.service.url}${BASE}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ publisher: SALES_ORDER_PUBLISHER, eventTypes: ['SALESORDER_UPDATED'], url: 'http://127.0.0.1:9/hook' }),
  });
  if (response.status !== 201) throw new Error(`POST ${BASE}: ${response.status}`);
  return ((await response.json()) as { id: string }).id;
}

const family = (operation: string, request: IdempotentWriteFamily['request'], extra: Partial<IdempotentWriteFamily> = {}): IdempotentWriteFamily => ({
  url: () => t.service.url,
  auth: () => t.auth,
  sql: () => t.sql,
  company: A,
  otherCompany: B,
  operation,
  effects,
  request,
  ...extra,
});
const onSubscription = (suffix: string, body: (variant: 'first' | 'other') => unknown, method: 'POST' | 'PATCH' = 'POST') => async (variant: 'first' | 'other', company: string): Promise<KeyedWriteRequest> => ({
  method,
  path: `${BASE}/${await subscription(company)}${suffix}`,
  body: body(variant),
});

/** The subscriptions API and its actions keep the Idempotency-Key rules. */
describe('webhook-publisher keyed writes', () => {
  beforeAll(async () => {
    t = await startWebhooksTestApp('webhook-keyed');
    // One event of each company in June, before every subscription the tests make: a replay of
    // June queues it for the subscription (a delivery row), which no earlier delivery did.
    for (const company of [A, B]) {
      await t.sql.query(
        `INSERT INTO webhook_events (id, company_id, type, publisher, ordering_key, occurred_at, data)
         VALUES (gen_random_uuid(), $1, 'SALESORDER_UPDATED', $2, $3, '2026-06-01T00:00:00Z', '{}')`,
        [company, SALES_ORDER_PUBLISHER, `${company}:SO:000001`],
      );
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describeIdempotentWriteRules(
    'POST /api/webhooks/subscriptions',
    family(`POST ${BASE}`, (variant) => ({
      method: 'POST',
      path: BASE,
      body: { publisher: SALES_ORDER_PUBLISHER, eventTypes: ['SALESORDER_UPDATED'], url: `http://127.0.0.1:9/${variant}/${randomUUID()}` },
    })),
  );
  describeIdempotentWriteRules(
    'PATCH /api/webhooks/subscriptions/{id}',
    family(`PATCH ${BASE}/:id`, onSubscription('', (variant) => ({ url: `http://127.0.0.1:9/${variant}/${randomUUID()}` }), 'PATCH')),
  );
  describeIdempotentWriteRules(
    'POST /api/webhooks/subscriptions/{id}/rotate-secret',
    family(`POST ${BASE}/:id/rotate-secret`, onSubscription('/rotate-secret', () => ({})), {
      // Nothing to validate in its body: a subscription that does not exist is its 4xx.
      invalidRequest: () => ({ method: 'POST', path: `${BASE}/${randomUUID()}/rotate-secret`, body: {} }),
    }),
  );
  describeIdempotentWriteRules(
    'POST /api/webhooks/subscriptions/{id}/replay',
    family(`POST ${BASE}/:id/replay`, onSubscription('/replay', (variant) => ({ since: variant === 'other' ? '2026-05-15T00:00:00Z' : '2026-05-01T00:00:00Z', until: '2026-07-01T00:00:00Z' }))),
  );
});
