import { startWebhookListener, type WebhookListener } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth, waitUntil, PATIENCE_MS } from '@erp/testing';
import { deployedApps } from '../catalog';
import { type ExportedNames, monitoringQueries, readExposition, unknownNames } from './query-check';

const A = '1000001';
const auth = new TestAuth();
const apps = deployedApps();

/**
 * The alert rules and dashboards against what the services really export: the whole system as
 * processes, some traffic that makes every kind of series appear (HTTP, a customer event through
 * the outbox to two consumer groups, a webhook delivered, the pools), then every service's and the
 * gateway's /metrics scraped. A query naming a metric or label that no /metrics has fails here.
 */
describe('the dashboards and alert rules against every /metrics of a running system', () => {
  let testSystem: TestSystem | undefined;
  let listener: WebhookListener | undefined;
  let exported: ExportedNames;
  let scraped: string[];

  beforeAll(async () => {
    testSystem = await startTestSystem('monitoring', { auth });
    const { system } = testSystem;
    const headers = { ...(await auth.headers({ company: A })), 'content-type': 'application/json' };
    const v3 = { ...(await auth.headers({ company: A, applicationType: null })), 'content-type': 'application/json' };
    let delivered = 0;
    listener = await startWebhookListener({
      baseUrl: system.baseUrl,
      token: await auth.token({ companies: [A], scope: 'webhooks:manage' }),
      companyId: A,
      eventTypes: ['CUSTOMER_CREATED', 'SALESORDER_CREATED'],
      onDelivery: () => delivered++,
    });
    const customer = await fetch(`${system.baseUrl}/v1/customer`, { method: 'POST', headers, body: JSON.stringify({ name: 'Metrics Foods AS', currencyId: 'NOK' }) });
    expect(customer.status).toBe(201);
    const { number } = (await customer.json()) as { number: string };
    expect((await fetch(`${system.baseUrl}/api/v3/Inventory/BOLT-1`, { method: 'PUT', headers: v3, body: JSON.stringify({ description: 'Bolt', baseUnit: 'PCS' }) })).status).toBeLessThan(300);
    // The order needs the customer's snapshot, which sales-orders-v3's consumer takes from the event.
    await waitUntil('sales-orders-v3 to know the customer', async () => {
      const order = await fetch(`${system.baseUrl}/api/v3/SalesOrders`, {
        method: 'POST',
        headers: v3,
        body: JSON.stringify({ type: 'SO', customer: { id: number }, orderLines: [{ inventoryId: 'BOLT-1', quantity: 1, unitPrice: '1.00' }] }),
      });
      return order.status === 201;
    }, 60_000);
    for (const path of ['/v1/customer?pageSize=10&pageNumber=1', '/v1/supplierInvoice?pageSize=10&pageNumber=1', '/v1/no-such-route']) {
      await fetch(`${system.baseUrl}${path}`, { headers });
    }
    await waitUntil('the customer and order webhooks to arrive', () => delivered >= 2, PATIENCE_MS);
    exported = new Map();
    scraped = [];
    for (const [name, url] of Object.entries({ ...system.serviceUrls, 'api-gateway': system.baseUrl })) {
      const response = await fetch(`${url}/metrics`);
      expect([name, response.status]).toEqual([name, 200]);
      readExposition(await response.text(), exported);
      scraped.push(name);
    }
  }, 240_000);

  afterAll(async () => {
    await listener?.stop();
    await testSystem?.stop();
  });

  it('scraped every deployed app', () => {
    expect(scraped.sort()).toEqual(apps.map((app) => app.name).sort());
  });

  it('saw the series the alerts are about, with samples', () => {
    for (const name of [
      'http_request_duration_seconds_bucket',
      'outbox_pending_events',
      'outbox_oldest_pending_age_seconds',
      'kafka_consumer_lag_messages',
      'kafka_consumer_dead_letters_total',
      'webhook_delivery_attempts_total',
      'webhook_subscriptions',
      'db_client_connections_usage',
      'db_client_connections_max',
      'db_client_connections_pending_requests',
      'nodejs_eventloop_lag_p99_seconds',
    ]) {
      expect([name, exported.has(name)]).toEqual([name, true]);
    }
  });

  it('has no dashboard or alert query naming a metric or label that no /metrics exports', () => {
    const queries = monitoringQueries(apps);
    expect(queries.length).toBeGreaterThan(60);
    expect(unknownNames(queries, exported, apps)).toEqual([]);
  });
});
