import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { describeTenantWallRules, whileTenantViewAdmitsNothing } from '@erp/testing';
import { WEBHOOKS_WALL } from '../migrations/1795835600000-wall-by-tenant-views';
import { SALES_ORDER_PUBLISHER } from '../publishers/publishers';
import { startWebhooksTestApp, type WebhooksTestApp } from '../testing/webhooks-test-app';

const A = '1000001';
const B = '2000002';
const BASE = '/api/webhooks/subscriptions';

/**
 * Defence in depth: the tenant views keep companies apart even where a query forgets
 * `company_id`. Each statement runs through the service's own DataSource in a company's scope,
 * exactly as a request handler's would (RELIABILITY.md "Defence in depth").
 */
describe('webhook-publisher tenant wall', () => {
  let t: WebhooksTestApp;
  let db: DataSource;
  const subscriptions: Record<string, string> = {};

  beforeAll(async () => {
    t = await startWebhooksTestApp('webhook-row-security');
    db = t.service.app.get<DataSource>(getDataSourceToken());
    for (const company of [A, B]) {
      const response = await t.api(BASE, {
        method: 'POST',
        company,
        body: { publisher: SALES_ORDER_PUBLISHER, eventTypes: ['SALESORDER_UPDATED'], url: 'http://127.0.0.1:9/hook' },
      });
      expect(response.status).toBe(201);
      subscriptions[company] = ((await response.json()) as { id: string }).id;
      // What the event intake and the delivery worker record (already delivered: the worker leaves them be).
      await t.sql.query(
        `WITH event AS (
           INSERT INTO webhook_events (id, company_id, type, publisher, ordering_key, occurred_at, data)
           VALUES (gen_random_uuid(), $1, 'SALESORDER_UPDATED', $3, 'SO-1', now(), '{}') RETURNING id, seq
         ), delivery AS (
           INSERT INTO webhook_deliveries (subscription_id, event_id, company_id, ordering_key, event_seq, status, attempts, delivered_at)
           SELECT $2, id, $1, 'SO-1', seq, 'delivered', 1, now() FROM event RETURNING id, event_id
         )
         INSERT INTO webhook_delivery_attempts (delivery_id, subscription_id, company_id, event_id, attempt, attempted_at, outcome, response_code, latency_ms)
         SELECT id, $2, $1, event_id, 1, now(), 'delivered', 200, 5 FROM delivery`,
        [company, subscriptions[company], SALES_ORDER_PUBLISHER],
      );
    }
  });

  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t?.close();
  });

  describeTenantWallRules({ db: () => db, tables: [...WEBHOOKS_WALL.tables, ...WEBHOOKS_WALL.children], own: A, other: B });

  it('background work (intake, delivery worker) still sees every company', async () => {
    expect(await db.query(`SELECT company_id FROM webhook_deliveries ORDER BY 1`)).toEqual([{ company_id: A }, { company_id: B }]);
  });

  it('runs request handlers behind the wall (a view that admits nothing hides the subscription)', async () => {
    expect((await t.api(`${BASE}/${subscriptions[A]}`, { company: A })).status).toBe(200);
    await whileTenantViewAdmitsNothing(t.sql, 'webhook_subscriptions', async () => {
      expect((await t.api(`${BASE}/${subscriptions[A]}`, { company: A })).status).toBe(404);
    });
    expect((await t.api(`${BASE}/${subscriptions[A]}`, { company: A })).status).toBe(200);
  });
});
