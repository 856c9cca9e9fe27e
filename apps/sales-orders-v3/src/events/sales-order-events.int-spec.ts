import { Kafka, logLevel, type Producer } from 'kafkajs';
import { createEvent, CustomerEventData, customerLink, INTERNAL_ROUTES, TOPICS, validateEnvelope } from '@erp/contracts';
import { messageKeyOf, prefixedTopic } from '@erp/messaging';
import { testKafkaBrokers, TopicReader, PATIENCE_MS } from '@erp/testing';
import { insertCustomerSnapshots, outboxRows, putInventoryItems, startSalesOrdersTestApp, type SalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
let t: SalesOrdersTestApp;
let headers: Record<string, string>;
let producer: Producer;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = PATIENCE_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function send(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<Response> {
  const h: Record<string, string> = { ...headers, ...extra };
  if (body === undefined) delete h['content-type'];
  return t.http.request(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function publishCustomer(
  type: 'CUSTOMER_CREATED' | 'CUSTOMER_UPDATED',
  customer: { number: string; name: string; status: 'Active' | 'Inactive' | 'OnHold'; version: string; currencyId?: string | null },
): Promise<void> {
  const event = createEvent({
    type,
    source: 'customers-v1',
    companyId: A,
    subject: customer.number,
    data: {
      number: customer.number,
      name: customer.name,
      status: customer.status,
      currencyId: customer.currencyId ?? 'EUR',
      version: customer.version,
      lastModifiedDateTime: '2026-04-21T10:00:00.000',
      link: customerLink(customer.number),
    },
  });
  await producer.send({
    topic: prefixedTopic(t.topicPrefix, TOPICS.customers),
    messages: [{ key: messageKeyOf(event), value: JSON.stringify(event) }],
  });
}

async function snapshot(customerId: string): Promise<{ name: string; status: string; source_version: string } | undefined> {
  const rows = await t.sql.query(`SELECT name, status, source_version::text FROM customer_snapshots WHERE company_id = $1 AND customer_id = $2`, [
    A,
    customerId,
  ]);
  return rows.rows[0];
}

describe('sales-orders-v3 events', () => {
  beforeAll(async () => {
    t = await startSalesOrdersTestApp('events');
    headers = await t.headers(A);
    await insertCustomerSnapshots(t, A, [{ id: '10001', name: 'Acme AS' }]);
    await putInventoryItems(t, A, ['A']);
    producer = new Kafka({ clientId: 'sales-orders-events-test', brokers: testKafkaBrokers(), logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await producer.disconnect();
    await t.close();
  });

  describe('SALESORDER_* through the outbox', () => {
    it('writes SALESORDER_CREATED, _UPDATED and _DELETED with the webhook data, in the transaction of each change', async () => {
      const created = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 1, unitPrice: 1 }] });
      expect(created.status).toBe(201);
      const location = created.headers.get('location')!;
      const etag1 = created.headers.get('etag')!;
      const patched = await send('PATCH', location, { status: 'Hold' }, { 'if-match': etag1 });
      const etag2 = patched.headers.get('etag')!;
      expect((await send('DELETE', location, undefined, { 'if-match': etag2 })).status).toBe(202);

      const rows = await outboxRows(t.sql);
      expect(rows.map((r) => r.event_type)).toEqual(['SALESORDER_CREATED', 'SALESORDER_UPDATED', 'SALESORDER_DELETED']);
      for (const row of rows) {
        expect(row.topic).toBe(`${t.topicPrefix}erp.sales-orders.sales-order.v3`);
        expect(row.message_key).toBe(`${A}:SO/000001`);
        expect(row.payload).toMatchObject({ type: row.event_type, source: 'sales-orders-v3', companyId: A, subject: 'SO/000001' });
        expect(String(row.payload.time)).toMatch(/Z$/);
      }
      const data = rows.map((r) => r.payload.data as Record<string, string>);
      // Created and updated orders carry their currency, totals and priced lines (decimals as exact strings).
      const priced = {
        currencyId: 'NOK',
        totals: { discountTotal: '0', freightTotal: '0', taxTotal: '0', orderTotal: '1', orderTotalInBaseCurrency: '1' },
        lines: [{ lineId: 1, inventoryId: 'A', quantity: '1', unitPrice: '1', discountPercent: '0', extendedPrice: '1', hasManualPrice: true, hasManualDiscount: false }],
      };
      expect(data[0]).toEqual({ type: 'SO', orderId: '000001', customerId: '10001', status: 'Open', version: etag1.slice(1, -1), link: '/api/v3/SalesOrders/SO/000001', ...priced });
      expect(data[1]).toMatchObject({ status: 'Hold', version: etag2.slice(1, -1), ...priced });
      expect(BigInt(data[2].version)).toBeGreaterThan(BigInt(data[1].version));
      expect(data[2]).toEqual({ type: 'SO', orderId: '000001', customerId: '10001', status: 'Hold', version: data[2].version, link: '/api/v3/SalesOrders/SO/000001' });
      for (const row of rows) expect(validateEnvelope(row.payload, { topic: TOPICS.salesOrders })).toMatchObject({ valid: true });
    });

    it('writes no event for a rejected request (400, 404, 412, 428)', async () => {
      const before = await outboxRows(t.sql);
      const created = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001' } });
      const location = created.headers.get('location')!;
      const afterCreate = await outboxRows(t.sql);
      expect(afterCreate).toHaveLength(before.length + 1);
      const rejected = [
        await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: 'nobody' } }),
        await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '10001' }, orderLines: [{ inventoryId: 'A', quantity: 0, unitPrice: 1 }] }),
        await send('PATCH', location, { note: 'x' }),
        await send('PATCH', location, { note: 'x' }, { 'if-match': '"1"' }),
        await send('PATCH', location, { lines: [{ operation: 'delete', lineId: 5 }] }, { 'if-match': '*' }),
        await send('PATCH', '/api/v3/SalesOrders/SO/999999', { note: 'x' }, { 'if-match': '*' }),
        await send('DELETE', location, undefined, { 'if-match': '"1"' }),
      ];
      expect(rejected.map((r) => r.status)).toEqual([400, 400, 428, 412, 400, 404, 412]);
      expect(await outboxRows(t.sql)).toEqual(afterCreate);
    });

    it('publishes the events to the v3 sales-order topic, keyed by company and order', async () => {
      const reader = await TopicReader.start([prefixedTopic(t.topicPrefix, TOPICS.salesOrders)]);
      try {
        const created = await send('POST', '/api/v3/SalesOrders', { type: 'QT', customer: { id: '10001' } });
        const orderId = ((await created.json()) as { orderId: string }).orderId;
        const message = await waitFor('the published SALESORDER_CREATED', async () =>
          reader.messages.find((m) => m.value?.includes(`"QT/${orderId}"`)),
        );
        expect(message.key).toBe(`${A}:QT/${orderId}`);
        expect(JSON.parse(message.value!)).toMatchObject({ type: 'SALESORDER_CREATED', data: { type: 'QT', orderId, customerId: '10001' } });
      } finally {
        await reader.stop();
      }
    });
  });

  describe('the customer snapshot from customer events', () => {
    it('adds a customer from CUSTOMER_CREATED, so orders for it are accepted', async () => {
      expect((await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '20001' } })).status).toBe(400);
      await publishCustomer('CUSTOMER_CREATED', { number: '20001', name: 'Baltic Foods Oy', status: 'Active', version: '10' });
      await waitFor('the snapshot of 20001', () => snapshot('20001'));
      const response = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '20001' } });
      expect(response.status).toBe(201);
      expect((await response.json()) as object).toMatchObject({ currencyId: 'EUR', customer: { id: '20001', name: 'Baltic Foods Oy' } });
    });

    it('applies CUSTOMER_UPDATED, ignores an older version, and refuses orders for an inactive customer', async () => {
      await publishCustomer('CUSTOMER_UPDATED', { number: '20001', name: 'Baltic Foods Group Oy', status: 'Inactive', version: '12' });
      await publishCustomer('CUSTOMER_UPDATED', { number: '20001', name: 'Stale Name', status: 'Active', version: '11' });
      await publishCustomer('CUSTOMER_CREATED', { number: '20002', name: 'Marker', status: 'Active', version: '1' });
      // Same company, same partition key order is per customer; wait until the last one is in.
      await waitFor('the snapshot of 20002', () => snapshot('20002'));
      await waitFor('version 12 of 20001', async () => ((await snapshot('20001'))?.source_version === '12' ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await snapshot('20001')).toEqual({ name: 'Baltic Foods Group Oy', status: 'Inactive', source_version: '12' });
      // An inactive snapshot is confirmed with customers-v1 before an order is refused: it says so too.
      t.internalApis['customers-v1']!.answer(A, INTERNAL_ROUTES.customer.path('20001'), CustomerEventData, {
        number: '20001',
        name: 'Baltic Foods Group Oy',
        status: 'Inactive',
        currencyId: 'EUR',
        version: '12',
        lastModifiedDateTime: '2026-04-21T10:00:00.000',
        link: customerLink('20001'),
      });
      const response = await send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: '20001' } });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { details: Array<{ code: string }> }).details[0].code).toBe('0008-InactiveReference');
    });
  });
});
