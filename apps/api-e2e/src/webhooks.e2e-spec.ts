import { createHmac } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { startWebhookListener, type ListenedDelivery, type RunningSystem, type WebhookListener } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth, waitFor } from '@erp/testing';
import { putInventoryItems } from './support/inventory';

const A = '1000001';
const auth = new TestAuth();
let system: RunningSystem;
let testSystem: TestSystem | undefined;
let listener: WebhookListener | undefined;
const deliveries: ListenedDelivery[] = [];
// The order the first test creates and changes; the second changes its lines.
let orderLocation = '';
let orderEtag = '';

async function v3Headers(company: string): Promise<Record<string, string>> {
  return { ...(await auth.headers({ company, applicationType: null })), 'content-type': 'application/json' };
}

/**
 * Webhooks end to end: a PATCH of a sales order through the gateway commits the order and its
 * outbox event; the relay publishes it; the webhook publisher consumes it and delivers it, signed,
 * to a receiver subscribed through the gateway (the developers' `webhooks:listen` receiver).
 */
describe('webhooks through the api-gateway', () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('e2e_wh', { services: ['customers-v1', 'sales-orders-v3', 'webhook-publisher'], auth });
    system = testSystem.system;
  }, 120_000);

  afterAll(async () => {
    await listener?.stop();
    await testSystem?.stop();
  });

  it('delivers the SALESORDER_UPDATED of a PATCH, verifiable with standardwebhooks and by HMAC of the raw body', async () => {
    listener = await startWebhookListener({
      baseUrl: system.baseUrl,
      token: await auth.token({ companies: [A], scope: 'webhooks:manage' }),
      companyId: A,
      eventTypes: ['SALESORDER_CREATED', 'SALESORDER_UPDATED'],
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    const [{ secret }] = listener.subscriptions;

    const customer = await fetch(`${system.baseUrl}/v1/customer`, {
      method: 'POST',
      headers: { ...(await auth.headers({ company: A })), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Webhook Foods AS', currencyId: 'NOK' }),
    });
    expect(customer.status).toBe(201);
    const { number } = (await customer.json()) as { number: string };
    await putInventoryItems(system.baseUrl, await v3Headers(A), ['ITEM-1']);
    // Sent right after the customer was created: sales orders asks customers-v1 when its event has not arrived.
    const created = await fetch(`${system.baseUrl}/api/v3/SalesOrders`, {
      method: 'POST',
      headers: await v3Headers(A),
      body: JSON.stringify({ type: 'SO', customer: { id: number }, orderLines: [{ inventoryId: 'ITEM-1', quantity: 1, unitPrice: '10.00' }] }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;

    const patched = await fetch(`${system.baseUrl}${location}`, {
      method: 'PATCH',
      headers: { ...(await v3Headers(A)), 'if-match': created.headers.get('etag')! },
      body: JSON.stringify({ status: 'Hold' }),
    });
    expect(patched.status).toBe(202);
    const version = patched.headers.get('etag')!.replace(/"/g, '');
    orderLocation = location;
    orderEtag = patched.headers.get('etag')!;

    const update = await waitFor(() => deliveries.find((d) => d.body.type === 'SALESORDER_UPDATED'), 'the SALESORDER_UPDATED delivery');
    expect(update.verified).toBe(true);
    const headers = update.headers as Record<string, string>;
    expect(new Webhook(secret).verify(update.rawBody, headers)).toMatchObject({
      type: 'SALESORDER_UPDATED',
      publisher: 'vendor.net.erp.salesorderservice-publisher',
      companyId: A,
      data: { type: 'SO', orderId: location.split('/').pop(), status: 'Hold', version, link: location },
    });
    // The order as priced after the change travels with it: totals and lines, decimals as exact strings.
    expect(update.body.data).toMatchObject({
      totals: { orderTotal: '10', discountTotal: '0', taxTotal: '0' },
      lines: [{ lineId: 1, inventoryId: 'ITEM-1', quantity: '1', unitPrice: '10', extendedPrice: '10', hasManualPrice: true }],
    });
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(headers['x-vwd-signature-v1']).toBe(createHmac('sha256', key).update(update.rawBody).digest('base64'));
    expect(headers['x-vwd-tenant-id']).toBe(A);
    expect(headers['x-vwd-event-id']).toBe(headers['webhook-id']);
    // The creation came first, on the same order.
    const createdIndex = deliveries.findIndex((d) => d.body.type === 'SALESORDER_CREATED');
    expect(createdIndex).toBeGreaterThanOrEqual(0);
    expect(createdIndex).toBeLessThan(deliveries.indexOf(update));

    const log = await fetch(`${system.baseUrl}/api/webhooks/subscriptions/${listener.subscriptions[0].id}/deliveries`, {
      headers: await v3Headers(A),
    });
    expect(log.status).toBe(200);
    expect(((await log.json()) as { value: Array<{ status: string }> }).value.some((a) => a.status === 'delivered')).toBe(true);
  });

  it('delivers a SALESORDER_UPDATED for each line operation, each valid against the published schema', async () => {
    const base = `${system.baseUrl}${orderLocation}`;
    let etag = orderEtag;
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${base}${path}`, {
        method,
        headers: {
          ...(body === undefined ? await auth.headers({ company: A, applicationType: null }) : await v3Headers(A)),
          'if-match': etag,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect({ status: response.status, body: await response.text() }).toEqual({ status: 202, body: '' });
      etag = response.headers.get('etag')!;
      return etag.replace(/"/g, '');
    };
    const versions = [
      await send('POST', '/lines', { lines: [{ inventoryId: 'ITEM-1', quantity: 2, unitPrice: 5 }] }),
      await send('PATCH', '/lines', { lines: [{ lineId: 2, quantity: 3 }] }),
      await send('DELETE', '/lines?ids=2'),
    ];
    const updates = await waitFor(() => {
      const found = versions.map((version) => deliveries.find((d) => d.body.type === 'SALESORDER_UPDATED' && (d.body.data as { version?: string }).version === version));
      return found.every(Boolean) ? found : undefined;
    }, 'a delivery per line operation', 30_000);

    // The schema the publisher publishes for the type, read as a subscriber would.
    const catalog = await fetch(`${system.baseUrl}/api/webhooks/publishers`, {
      headers: await auth.headers({ company: A, applicationType: null, scope: 'webhooks:manage' }),
    });
    expect(catalog.status).toBe(200);
    const publishers = (await catalog.json()) as { value: Array<{ eventTypes: Array<{ type: string; schema: object }> }> };
    const schema = publishers.value.flatMap((p) => p.eventTypes).find((t) => t.type === 'SALESORDER_UPDATED')!.schema;
    const validate = addFormats(new Ajv2020({ strict: false, allErrors: true })).compile(schema);
    for (const update of updates) {
      expect(update!.verified).toBe(true);
      expect(validate(update!.body)).toBe(true);
    }
    // The schema does check the payload: the same body with a status no order has is refused.
    const body = updates[0]!.body as { data: object };
    expect(validate({ ...body, data: { ...body.data, status: 'Sleeping' } })).toBe(false);
  });
});
