import { createHmac } from 'node:crypto';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { TestReceiver } from './test-receiver';
import { startWebhooksTestApp, type WebhooksTestApp } from './webhooks-test-app';
import { PATIENCE_MS } from '@erp/testing';

export const A = '1000001';
export const B = '2000002';

export interface Attempt {
  webhookId: string;
  attempt: number;
  status: string;
  responseCode: number | null;
  latencyMs: number;
  attemptedAt: string;
}

/** What the delivery specs share: the app, receivers that close with it, and the calls they make. */
export interface DeliveryTestKit {
  app(): WebhooksTestApp;
  receiver(...args: Parameters<typeof TestReceiver.start>): Promise<TestReceiver>;
  subscribe(url: string, options?: { company?: string; eventTypes?: string[]; publisher?: string }): Promise<{ id: string; secret: string }>;
  attemptsOf(id: string, company?: string): Promise<Attempt[]>;
}

/**
 * Starts a webhook-publisher for the calling describe (its own database and topics), removes every
 * subscription after each test so that each watches its own only, and closes the app and the
 * receivers at the end, failing if any request answered 5xx.
 */
export function useDeliveryTestApp(instance: string): DeliveryTestKit {
  let t: WebhooksTestApp | undefined;
  const receivers: TestReceiver[] = [];
  const app = () => {
    if (!t) throw new Error('the delivery test app is not started (call inside the describe, use in tests)');
    return t;
  };
  beforeAll(async () => {
    t = await startWebhooksTestApp(instance);
  });
  afterEach(async () => {
    await app().sql.query(`DELETE FROM webhook_subscriptions`);
  });
  afterAll(async () => {
    expect(app().http.serverErrors()).toEqual([]);
    await Promise.all(receivers.map((r) => r.close()));
    await app().close();
  });
  return {
    app,
    async receiver(...args) {
      const r = await TestReceiver.start(...args);
      receivers.push(r);
      return r;
    },
    async subscribe(url, options = {}) {
      const response = await app().api('/api/webhooks/subscriptions', {
        method: 'POST',
        company: options.company ?? A,
        body: {
          publisher: options.publisher ?? SALES_ORDER_PUBLISHER,
          eventTypes: options.eventTypes ?? ['SALESORDER_CREATED', 'SALESORDER_UPDATED', 'SALESORDER_DELETED'],
          url,
        },
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: string; secret: string };
    },
    async attemptsOf(id, company = A) {
      const response = await app().api(`/api/webhooks/subscriptions/${id}/deliveries`, { company });
      expect(response.status).toBe(200);
      return ((await response.json()) as { value: Attempt[] }).value;
    },
  };
}

export async function eventually(check: () => Promise<boolean>, timeoutMs = PATIENCE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** x-vwd-signature-v1: HMAC-SHA256 of the raw body with the subscription's secret. */
export function hmacOfBody(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(body).digest('base64');
}
