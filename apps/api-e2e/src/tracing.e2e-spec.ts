import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { startWebhookListener, type ListenedDelivery, type WebhookListener } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth, waitFor } from '@erp/testing';
import { putInventoryItems } from './support/inventory';

const A = '1000001';
const SERVICES = ['customers-v1', 'sales-orders-v3', 'webhook-publisher'];
const auth = new TestAuth();

// OTLP span kinds (opentelemetry/proto trace.proto).
const KIND = { SERVER: 2, CLIENT: 3, PRODUCER: 4, CONSUMER: 5 } as const;

interface CollectedSpan {
  service: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }>;
    }>;
  }>;
}

/** OTLP/JSON ids are hex; accept base64 too (protobuf-style JSON mappings) so the check is about linkage. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map(({ key, value }) => [key, value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue))]),
  );
}

/** A minimal OTLP/HTTP receiver: collects every span POSTed to /v1/traces (JSON). */
async function startCollector(): Promise<{ url: string; spans: CollectedSpan[]; close(): Promise<void> }> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !String(request.headers['content-type']).includes('json')) {
        response.writeHead(400).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({
              service,
              name: span.name,
              kind: span.kind,
              traceId: hexId(span.traceId),
              spanId: hexId(span.spanId),
              parentSpanId: hexId(span.parentSpanId),
              attributes: attributesOf(span.attributes),
            });
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A customer, then a sales order for it (retried while sales-orders-v3 has not yet consumed the
 * customer), then a PATCH of the order with the caller's `traceparent`. Resolves to the order path.
 */
async function patchSalesOrder(baseUrl: string, traceparent: string): Promise<string> {
  const v3 = { ...(await auth.headers({ company: A, applicationType: null })), 'content-type': 'application/json' };
  const customer = await fetch(`${baseUrl}/v1/customer`, {
    method: 'POST',
    headers: { ...(await auth.headers({ company: A })), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Traced Foods AS', currencyId: 'NOK' }),
  });
  expect(customer.status).toBe(201);
  const { number } = (await customer.json()) as { number: string };
  await putInventoryItems(baseUrl, v3, ['ITEM-1']);
  // Sent right after the customer was created: sales orders asks customers-v1 when its event has not arrived.
  const created = await fetch(`${baseUrl}/api/v3/SalesOrders`, {
    method: 'POST',
    headers: v3,
    body: JSON.stringify({ type: 'SO', customer: { id: number }, orderLines: [{ inventoryId: 'ITEM-1', quantity: 1, unitPrice: '10.00' }] }),
  });
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  const patched = await fetch(`${baseUrl}${location}`, {
    method: 'PATCH',
    headers: { ...v3, 'if-match': created.headers.get('etag')!, traceparent },
    body: JSON.stringify({ status: 'Hold' }),
  });
  expect(patched.status).toBe(202);
  return location;
}

async function queryRows<T>(databaseUrl: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * OpenTelemetry across the system, with real processes: the gateway continues a client's trace,
 * sales-orders-v3 records it with the outbox event, the relay sends it in Kafka headers, the webhook
 * publisher's consumer continues it and each delivery attempt is a client span whose context goes
 * out as the webhook's `traceparent`. Spans are exported over OTLP/HTTP (JSON) to a receiver here.
 */
describe('tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let testSystem: TestSystem | undefined;
  let listener: WebhookListener | undefined;
  const deliveries: ListenedDelivery[] = [];

  beforeAll(async () => {
    collector = await startCollector();
    testSystem = await startTestSystem('e2e_trace_on', {
      services: SERVICES,
      auth,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '200' },
    });
  }, 180_000);

  afterAll(async () => {
    await listener?.stop();
    await testSystem?.stop();
    await collector?.close();
  });

  it('links gateway -> sales-orders-v3 -> Kafka -> webhook-publisher -> webhook into the caller\'s trace', async () => {
    const { system } = testSystem!;
    listener = await startWebhookListener({
      baseUrl: system.baseUrl,
      token: await auth.token({ companies: [A], scope: 'webhooks:manage' }),
      companyId: A,
      eventTypes: ['SALESORDER_UPDATED'],
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const location = await patchSalesOrder(system.baseUrl, `00-${traceId}-${callerSpanId}-01`);

    // The webhook carries the trace on.
    const delivery = await waitFor(() => deliveries.find((d) => d.body.type === 'SALESORDER_UPDATED'), 'the SALESORDER_UPDATED webhook');
    expect(delivery.verified).toBe(true);
    const webhookParent = String(delivery.headers.traceparent ?? '');
    expect(webhookParent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // Every hop exported its span into that one trace, each the child of the hop before.
    const inTrace = () => collector.spans.filter((span) => span.traceId === traceId);
    const find = (service: string, kind: number, name?: RegExp) =>
      inTrace().find((span) => span.service === service && span.kind === kind && (!name || name.test(span.name)));
    // Each process exports on its own batch schedule: wait until every hop's span has arrived.
    const spans = await waitFor(() => {
      const found = {
        delivered: find('webhook-publisher', KIND.CLIENT),
        gateway: find('api-gateway', KIND.SERVER),
        service: find('sales-orders-v3', KIND.SERVER, /^PATCH /),
        created: find('sales-orders-v3', KIND.PRODUCER),
        consumed: find('webhook-publisher', KIND.CONSUMER),
      };
      return Object.values(found).every(Boolean) ? found : undefined;
    }, 'a span from every hop');
    const { gateway, service, created, consumed } = spans;
    const delivered = spans.delivered!;
    expect({ gateway, service, created, consumed }).toEqual({
      gateway: expect.objectContaining({ parentSpanId: callerSpanId }),
      service: expect.objectContaining({ parentSpanId: gateway?.spanId }),
      created: expect.objectContaining({ parentSpanId: service?.spanId }),
      consumed: expect.objectContaining({ parentSpanId: created?.spanId }),
    });
    expect(delivered.parentSpanId).toBe(consumed!.spanId);
    expect(webhookParent.split('-')[2]).toBe(delivered.spanId);

    // What the spans say about the request and the message.
    expect(gateway!.attributes).toMatchObject({ 'http.request.method': 'PATCH', 'http.response.status_code': 202, 'erp.company_id': A });
    expect(service!.name).toBe('PATCH /api/v3/SalesOrders/:type/:orderId');
    expect(service!.attributes).toMatchObject({ 'http.route': service!.name.slice('PATCH '.length), 'http.response.status_code': 202, 'erp.company_id': A });
    expect(service!.attributes['erp.request_id']).toBe(gateway!.attributes['erp.request_id']);
    expect(created!.attributes).toMatchObject({ 'messaging.system': 'kafka', 'erp.event_type': 'SALESORDER_UPDATED', 'erp.company_id': A });
    expect(consumed!.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.message.id': created!.attributes['messaging.message.id'],
    });
    expect(delivered.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 204,
      'erp.webhook.attempt': 1,
      'erp.webhook.subscription_id': delivery.subscriptionId,
    });
    // The context was stored with the outbox row and the delivery row (in their transactions).
    const [outboxRow] = await queryRows<{ trace_context: { traceparent: string } }>(
      system.databaseUrls['sales-orders-v3'],
      `SELECT trace_context FROM outbox WHERE event_type = 'SALESORDER_UPDATED'`,
    );
    expect(outboxRow.trace_context.traceparent).toBe(`00-${traceId}-${created!.spanId}-01`);
    const [deliveryRow] = await queryRows<{ trace_context: { traceparent: string } }>(
      system.databaseUrls['webhook-publisher'],
      `SELECT d.trace_context FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.type = 'SALESORDER_UPDATED'`,
    );
    expect(deliveryRow.trace_context.traceparent).toBe(`00-${traceId}-${consumed!.spanId}-01`);
    expect(location).toContain('/api/v3/SalesOrders/');
  });
});

describe('tracing off (the default)', () => {
  let testSystem: TestSystem | undefined;
  let listener: WebhookListener | undefined;
  const deliveries: ListenedDelivery[] = [];

  beforeAll(async () => {
    // Only the batch delay is set: without an endpoint tracing stays off.
    testSystem = await startTestSystem('e2e_trace_off', { services: SERVICES, auth, env: { OTEL_BSP_SCHEDULE_DELAY: '200' } });
  }, 300_000);

  afterAll(async () => {
    await listener?.stop();
    await testSystem?.stop();
  });

  it("sends no traceparent with the webhook and stores no trace context, even when the caller sent one", async () => {
    const { system } = testSystem!;
    listener = await startWebhookListener({
      baseUrl: system.baseUrl,
      token: await auth.token({ companies: [A], scope: 'webhooks:manage' }),
      companyId: A,
      eventTypes: ['SALESORDER_UPDATED'],
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    const traceId = randomBytes(16).toString('hex');
    await patchSalesOrder(system.baseUrl, `00-${traceId}-${randomBytes(8).toString('hex')}-01`);

    const delivery = await waitFor(() => deliveries.find((d) => d.body.type === 'SALESORDER_UPDATED'), 'the SALESORDER_UPDATED webhook');
    expect(delivery.verified).toBe(true);
    expect(delivery.headers.traceparent).toBeUndefined();
    expect(delivery.headers.tracestate).toBeUndefined();
    expect(await queryRows(system.databaseUrls['sales-orders-v3'], `SELECT id FROM outbox WHERE trace_context IS NOT NULL`)).toEqual([]);
    expect(await queryRows(system.databaseUrls['webhook-publisher'], `SELECT id FROM webhook_deliveries WHERE trace_context IS NOT NULL`)).toEqual([]);
  });
});
