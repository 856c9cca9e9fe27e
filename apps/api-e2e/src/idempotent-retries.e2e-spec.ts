import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ErpClient } from '@erp/client';
import type { ListenedDelivery } from '@erp/dev';
import { waitFor } from '@erp/testing';
import { useClientTestSystem } from './support/client-test-system';
import { type CuttingProxy, startCuttingProxy } from './support/cutting-proxy';

const COMPANY = '4000004';
const CRASH_COMPANY = '4000005';
/** Writes of each kind through the cutting proxy. */
const EACH = 6;
const EVENT_TYPES = ['CUSTOMER_CREATED', 'SUPPLIERINVOICE_CREATED', 'ATTACHMENT_CREATED', 'SALESORDER_CREATED', 'SALESORDER_UPDATED'];

/**
 * Issue 49, end to end: writes whose answers are lost count once.
 * - Through a proxy that cuts the first try of every write after the gateway answered it (the
 *   write applied, the answer lost), the typed client sends each again with its key: every record,
 *   every event and every webhook exists exactly once.
 * - A service killed (SIGKILL) after its write committed and before its answer left: the retry,
 *   with the same key, once the service is back, gets the committed answer, and there is one event.
 */
describe('safe retries of writes whose answers were lost', () => {
  const env = useClientTestSystem({ label: 'e2e_keyed' });
  const proxies: CuttingProxy[] = [];
  const sqlOf = async <T,>(service: string, text: string, values: unknown[]): Promise<T[]> => {
    const sql = new Client({ connectionString: env.system().databaseUrls[service] });
    await sql.connect();
    try {
      return (await sql.query(text, values)).rows as T[];
    } finally {
      await sql.end();
    }
  };
  const count = async (service: string, table: string, company: string) =>
    (await sqlOf<{ n: number }>(service, `SELECT count(*)::int AS n FROM ${table} WHERE company_id = $1`, [company]))[0]!.n;
  const events = async (service: string, type: string, company: string) =>
    (await sqlOf<{ n: number }>(service, `SELECT count(*)::int AS n FROM outbox WHERE event_type = $1 AND payload->>'companyId' = $2`, [type, company]))[0]!.n;

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
  });

  it(`counts ${EACH} writes of each kind once through a network that loses every first answer: records, events, webhooks`, async () => {
    const system = env.system();
    const deliveries: ListenedDelivery[] = [];
    await env.startListener({
      baseUrl: system.baseUrl,
      token: await env.auth.token({ companies: [COMPANY], scope: 'webhooks:manage' }),
      companyId: COMPANY,
      eventTypes: EVENT_TYPES,
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    const seen = new Set<string>();
    const proxy = await startCuttingProxy(system.baseUrl, {
      // The first try of each keyed write: the one whose answer the client never gets.
      cut: (method, _path, headers) => {
        const key = headers['idempotency-key'];
        if ((method !== 'POST' && method !== 'PATCH') || typeof key !== 'string' || seen.has(key)) return false;
        seen.add(key);
        return true;
      },
    });
    proxies.push(proxy);
    const token = await env.auth.token({ companies: [COMPANY], scope: 'erp:read erp:write' });
    const client = new ErpClient({ baseUrl: proxy.url, token, companyId: COMPANY, applicationType: 'keyed-e2e', retries: 3 });

    const customers = [];
    for (let i = 0; i < EACH; i++) customers.push(await client.customers.create({ name: `Keyed customer ${i}`, currencyId: 'NOK' }));
    const invoices = [];
    for (let i = 0; i < EACH; i++) {
      invoices.push(await client.supplierInvoices.create({ supplier: { number: 'S-1' }, description: `Keyed invoice ${i}`, invoiceLines: [{ quantity: 1, unitPrice: '10.00' }] }));
    }
    for (const [i, invoice] of invoices.entries()) {
      await client.attachments.upload({ type: 'supplierInvoice', id: invoice.referenceNumber }, { fileName: `scan-${i}.pdf`, data: Buffer.from(`scan ${i}`) }, { waitForOwnerMs: 60_000 });
    }
    for (let i = 0; i < EACH; i++) {
      const order = await env.createOrder(client, customers[i]!.number, `Keyed order ${i}`);
      await client.salesOrders.update('SO', order.orderId, () => ({ description: `Keyed order ${i}, changed` }));
    }

    // Every write lost its first answer, and was applied once.
    expect(proxy.cuts.filter((cut) => cut.method === 'POST' || cut.method === 'PATCH').length).toBeGreaterThanOrEqual(EACH * 5);
    expect({
      customers: await count('customers-v1', 'customers', COMPANY),
      invoices: await count('supplier-invoices-v1', 'supplier_invoices', COMPANY),
      attachments: await count('attachments-v1', 'attachments', COMPANY),
      orders: await count('sales-orders-v3', 'sales_orders', COMPANY),
    }).toEqual({ customers: EACH, invoices: EACH, attachments: EACH, orders: EACH });
    expect({
      CUSTOMER_CREATED: await events('customers-v1', 'CUSTOMER_CREATED', COMPANY),
      SUPPLIERINVOICE_CREATED: await events('supplier-invoices-v1', 'SUPPLIERINVOICE_CREATED', COMPANY),
      ATTACHMENT_CREATED: await events('attachments-v1', 'ATTACHMENT_CREATED', COMPANY),
      SALESORDER_CREATED: await events('sales-orders-v3', 'SALESORDER_CREATED', COMPANY),
      SALESORDER_UPDATED: await events('sales-orders-v3', 'SALESORDER_UPDATED', COMPANY),
    }).toEqual(Object.fromEntries(EVENT_TYPES.map((type) => [type, EACH])));
    // One webhook per event (a redelivery keeps its webhook-id), and no event more than once.
    const byType = (type: string) => new Set(deliveries.filter((d) => d.body.type === type).map((d) => d.body.id));
    await waitFor(() => (EVENT_TYPES.every((type) => byType(type).size >= EACH) ? true : undefined), 'a webhook of every event');
    expect(Object.fromEntries(EVENT_TYPES.map((type) => [type, byType(type).size]))).toEqual(Object.fromEntries(EVENT_TYPES.map((type) => [type, EACH])));
    expect(deliveries.every((d) => d.verified)).toBe(true);
    const webhookIdsPerEvent = new Map<string, Set<string>>();
    for (const d of deliveries) webhookIdsPerEvent.set(String(d.body.id), (webhookIdsPerEvent.get(String(d.body.id)) ?? new Set()).add(d.webhookId));
    expect([...webhookIdsPerEvent.values()].every((ids) => ids.size === 1)).toBe(true);
  });

  describe('a service killed after its write committed and before its answer left', () => {
    type Write = { method: string; path: string; body: unknown };
    /** What the sales order and upload cases need first: a customer sales-orders-v3 knows, an invoice attachments-v1 knows. */
    let arranged: { customer: string; invoice: string } | undefined;
    const arrange = async () => {
      if (arranged) return arranged;
      const client = await env.clientFor(CRASH_COMPANY);
      const customer = await client.customers.create({ name: 'Crash customer of orders' });
      await env.createOrder(client, customer.number, 'known to sales orders');
      const invoice = await client.supplierInvoices.create({ supplier: { number: 'S-9' }, invoiceLines: [{ quantity: 1, unitPrice: '1.00' }] });
      await client.attachments.upload({ type: 'supplierInvoice', id: invoice.referenceNumber }, { fileName: 'known.pdf', data: Buffer.from('known') }, { waitForOwnerMs: 60_000 });
      arranged = { customer: customer.number, invoice: invoice.referenceNumber };
      return arranged;
    };
    const cases: Array<{ family: string; service: string; table: string; event?: string; write: () => Promise<Write> }> = [
      { family: 'v1 customers', service: 'customers-v1', table: 'customers', event: 'CUSTOMER_CREATED', write: async () => ({ method: 'POST', path: '/v1/customer', body: { name: 'Crash customer' } }) },
      {
        family: 'v1 supplier invoices',
        service: 'supplier-invoices-v1',
        table: 'supplier_invoices',
        event: 'SUPPLIERINVOICE_CREATED',
        write: async () => ({ method: 'POST', path: '/v1/supplierInvoice', body: { supplier: { number: 'S-9' }, invoiceLines: [{ quantity: 1, unitPrice: '1.00' }] } }),
      },
      {
        family: 'v1 attachments (an upload)',
        service: 'attachments-v1',
        table: 'attachments',
        event: 'ATTACHMENT_CREATED',
        write: async () => ({ method: 'POST', path: `/v1/supplierInvoice/${(await arrange()).invoice}/Attachment`, body: 'upload' }),
      },
      {
        family: 'v3 sales orders',
        service: 'sales-orders-v3',
        table: 'sales_orders',
        event: 'SALESORDER_CREATED',
        write: async () => ({ method: 'POST', path: '/api/v3/SalesOrders', body: { type: 'SO', customer: { id: (await arrange()).customer }, orderLines: [{ inventoryId: 'C', quantity: 2, unitPrice: 3 }] } }),
      },
      {
        family: 'webhook subscriptions',
        service: 'webhook-publisher',
        table: 'webhook_subscriptions',
        write: async () => ({ method: 'POST', path: '/api/webhooks/subscriptions', body: { publisher: 'vendor.net.erp.salesorderservice-publisher', eventTypes: ['SALESORDER_UPDATED'], url: 'http://127.0.0.1:9/crash' } }),
      },
    ];
    /** The request as sent, each time: JSON, or the same file in a new multipart body. */
    const send = (url: string, write: Write, headers: Record<string, string>) => {
      if (write.body === 'upload') {
        const form = new FormData();
        form.append('file', new Blob(['the crash upload'], { type: 'application/pdf' }), 'crash.pdf');
        return fetch(`${url}${write.path}`, { method: write.method, headers, body: form });
      }
      return fetch(`${url}${write.path}`, { method: write.method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(write.body) });
    };

    it.each(cases)('$family: the retry with the same key gets the committed answer; one record, one event', async ({ service, write, table, event }) => {
      const system = env.system();
      const request = await write();
      const headers = { ...(await env.auth.headers({ company: CRASH_COMPANY })), 'idempotency-key': randomUUID() };
      const records = await count(service, table, CRASH_COMPANY);
      const published = event ? await events(service, event, CRASH_COMPANY) : 0;
      const proxy = await startCuttingProxy(system.serviceUrls[service] as string, {
        cut: (method) => method === request.method,
        // The answer has begun: the write and its stored answer committed (onSend). Now the crash.
        onAnswerStart: async () => {
          system.processes.find((proc) => proc.name === service)?.child.kill('SIGKILL');
        },
      });
      proxies.push(proxy);
      const lost = await send(proxy.url, request, headers).then(
        (response) => `answered ${response.status}`,
        () => 'cut',
      );
      expect(lost).toBe('cut');
      await system.restart(service);
      const retry = await send(system.baseUrl, request, headers);
      expect([retry.status < 300, retry.headers.get('idempotent-replayed')]).toEqual([true, 'true']);
      expect(await count(service, table, CRASH_COMPANY)).toBe(records + 1);
      if (event) expect(await events(service, event, CRASH_COMPANY)).toBe(published + 1);
    });
  });
});
