import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { ErpApiError, ErpAuthError, ErpClient, ErpConflictError, ErpNetworkError, verifyWebhook, WebhookVerificationError, type Customer, type SalesOrder } from '@erp/client';
import type { ListenedDelivery } from '@erp/dev';
import { TestAuth, waitFor } from '@erp/testing';
import { CONCURRENT_COMPANY, EXPORT_COMPANY, recordingFetch, useClientTestSystem, WORK_COMPANY } from './support/client-test-system';
import { insertCustomers } from './support/customers';

/** `@erp/client` against the whole system as processes, through the gateway. */
describe('@erp/client against the running system', () => {
  const { system, auth, figures, clientFor, customerNumbers, createOrder, startListener } = useClientTestSystem({
    label: 'e2e_client',
    async seed(running) {
      await insertCustomers(running.databaseUrls['customers-v1'], EXPORT_COMPANY, 2500, 'E');
      await insertCustomers(running.databaseUrls['customers-v1'], CONCURRENT_COMPANY, 2500, 'C');
    },
    figuresFile: 'client-e2e.json',
  });

  describe('v3 customers and inventory', () => {
    it('reads the v3 view of the customers (filter, paging by nextPage, locations) and creates and lists inventory items', async () => {
      const client = await clientFor(EXPORT_COMPANY);
      const found: string[] = [];
      for await (const customer of client.customers.listV3({ filter: 'E0001' }, { pageSize: 4 })) found.push(customer.id!);
      expect(found).toEqual(['E00010', 'E00011', 'E00012', 'E00013', 'E00014', 'E00015', 'E00016', 'E00017', 'E00018', 'E00019']);
      expect(await client.customers.locations('E00010')).toEqual([expect.objectContaining({ id: 'MAIN', name: 'Customer 10' })]);

      const put = await client.inventory.put('CLIENT-ITEM', { description: 'Crate', attributes: { WEBSHOP: '1' }, availability: [{ warehouseId: 'MAIN', quantityOnHand: 3 }] });
      expect(put).toMatchObject({ inventoryId: 'CLIENT-ITEM', attributes: { WEBSHOP: '1' } });
      const items = [];
      for await (const item of client.inventory.list({ attributeFilter: ['WEBSHOP:1'] }, { expand: ['Attribute'] })) items.push(item);
      expect(items).toEqual([expect.objectContaining({ inventoryId: 'CLIENT-ITEM', attributes: { WEBSHOP: '1' } })]);
    });

    it('manages price classes, price lists and exchange rates (extensions) and reads them back', async () => {
      const client = await clientFor(EXPORT_COMPANY);
      await client.inventory.put('PRICED-ITEM', { description: 'Priced', prices: [{ currencyId: 'NOK', unitPrice: '9.90' }] });
      // (This company's customers were loaded straight into customers-v1, without events: sales orders does not know them.)
      expect(await client.prices.putPriceClass('TRADE', { description: 'Trade', customers: [] })).toMatchObject({ priceClassId: 'TRADE', customers: [] });
      const list = await client.prices.putPriceList('NOK-2026', { currencyId: 'NOK', entries: [{ inventoryId: 'PRICED-ITEM', priceClassId: 'TRADE', minQuantity: 10, unitPrice: '8.50' }] });
      expect(list.entries).toEqual([expect.objectContaining({ inventoryId: 'PRICED-ITEM', priceClassId: 'TRADE', minQuantity: 10, unitPrice: 8.5 })]);
      expect(await client.prices.getPriceList('NOK-2026')).toEqual(list);
      await client.prices.putCurrencyRates({ baseCurrencyId: 'NOK', rates: [{ currencyId: 'EUR', effectiveDate: '2026-01-01', rate: '11.5' }] });
      expect(await client.prices.getCurrencyRates()).toMatchObject({ baseCurrencyId: 'NOK', rates: [{ currencyId: 'EUR', effectiveDate: '2026-01-01', rate: 11.5 }] });
      await expect(client.prices.getPriceClass('NONE')).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('v1 paging', () => {
    it('exports 2,500 customers at pageSize 100 as exactly 2,500 unique records, pageSize 100 and consecutive pageNumbers on every request', async () => {
      const recorder = recordingFetch();
      const client = await clientFor(EXPORT_COMPANY, { fetch: recorder.fetch });
      const numbers: string[] = [];
      const started = Date.now();
      for await (const customer of client.customers.list({}, { pageSize: 100 })) numbers.push(customer.number);

      figures.export = { records: numbers.length, pageSize: 100, requests: recorder.requests.length, ms: Date.now() - started };
      expect(numbers).toHaveLength(2500);
      expect(new Set(numbers).size).toBe(2500);
      expect(new Set(numbers)).toEqual(new Set(await customerNumbers(EXPORT_COMPANY)));
      expect(recorder.requests).toHaveLength(25);
      recorder.requests.forEach(({ url, status }, i) => {
        expect(status).toBe(200);
        expect(url.pathname).toBe('/v1/customer');
        expect(Object.fromEntries(url.searchParams)).toEqual({ pageSize: '100', pageNumber: String(i + 1) });
      });
    }, 120_000);

    it('misses no record that existed at the start while another writer inserts customers during the export, and never changes pageSize', async () => {
      const atStart = await customerNumbers(CONCURRENT_COMPANY);
      expect(atStart).toHaveLength(2500);
      const writer = await clientFor(CONCURRENT_COMPANY);
      let inserted = 0;
      let exporting = true;
      const writing = (async () => {
        while (exporting) {
          await writer.customers.create({ name: `Written during export ${inserted}` });
          inserted++;
        }
      })();
      // Each page waits until the writer has added another customer, so inserts land between pages for sure.
      let insertedBeforeLastPage = 0;
      const recorder = recordingFetch(async () => {
        const target = insertedBeforeLastPage + 1;
        await waitFor(() => (inserted >= target ? true : undefined), 'the writer');
        insertedBeforeLastPage = inserted;
      });
      const client = await clientFor(CONCURRENT_COMPANY, { fetch: recorder.fetch });
      const totals: number[] = [];
      const exported: string[] = [];
      try {
        for await (const customer of client.customers.list({ status: 'Active' }, { pageSize: 100, onPage: (page) => totals.push(page.totalCount ?? -1) })) {
          exported.push(customer.number);
        }
      } finally {
        exporting = false;
        await writing;
      }

      figures.exportDuringInserts = { atStart: atStart.length, insertedDuringExport: inserted, exported: exported.length, requests: recorder.requests.length, totalCounts: [totals[0], totals[totals.length - 1]] };
      expect(inserted).toBeGreaterThanOrEqual(recorder.requests.length);
      expect(totals[totals.length - 1]).toBeGreaterThan(totals[0]);
      const seen = new Set(exported);
      expect(atStart.filter((number) => !seen.has(number))).toEqual([]);
      expect(seen.size).toBe(exported.length);
      expect(exported.length).toBeGreaterThanOrEqual(totals[totals.length - 1]);
      recorder.requests.forEach(({ url }, i) => {
        expect(Object.fromEntries(url.searchParams)).toEqual({ status: 'Active', pageSize: '100', pageNumber: String(i + 1) });
      });
    }, 180_000);
  });

  describe('read-modify-write with If-Match', () => {
    it('10 writers x 50 increments of a sales order field through salesOrders.update end with exactly 500 increments', async () => {
      const recorder = recordingFetch();
      const client = await clientFor(WORK_COMPANY, { fetch: recorder.fetch });
      const customer = await client.customers.create({ name: 'Counter Customer' });
      const order = await createOrder(client, customer.number, '0');
      const increment = (current: SalesOrder) => ({ description: String(Number(current.description) + 1) });

      const started = Date.now();
      let unavailable = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let i = 0; i < 50; i++) {
            // The helper never re-sends a write that failed with 503 (it cannot know whether it was
            // applied); on a busy test machine the service may answer 503 when it cannot get a
            // database connection in time (nothing applied), so the writer tries that increment again.
            // A 503 that had applied would show as more than 500 below.
            for (;;) {
              try {
                await client.salesOrders.update(order.type, order.orderId, increment, { maxAttempts: 1000 });
                break;
              } catch (error) {
                if (!(error instanceof ErpApiError && error.status === 503)) throw error;
                unavailable++;
                await new Promise((resolve) => setTimeout(resolve, 1000));
              }
            }
          }
        }),
      );

      expect((await client.salesOrders.get(order.type, order.orderId)).description).toBe('500');
      const patches = recorder.requests.filter((r) => r.method === 'PATCH');
      figures.contention = { writers: 10, incrementsEach: 50, final: 500, patches202: patches.filter((r) => r.status === 202).length, patches412: patches.filter((r) => r.status === 412).length, unavailable, ms: Date.now() - started };
      expect(patches.filter((r) => r.status === 202)).toHaveLength(500);
      // The writers really competed: some writes met a newer version and were re-applied.
      expect(patches.filter((r) => r.status === 412).length).toBeGreaterThan(0);
      expect(patches.filter((r) => r.status !== 202 && r.status !== 412 && r.status !== 503)).toEqual([]);
    }, 600_000);

    it('re-applies the change to the re-read order after a 412 and gives up with ErpConflictError after maxAttempts', async () => {
      const client = await clientFor(WORK_COMPANY);
      const customer = await client.customers.create({ name: 'Conflict Customer' });
      const order = await createOrder(client, customer.number, '0');
      const seen: string[] = [];
      // Every time the helper has read the order, someone else writes it first: each write is a 412.
      const change = async (current: SalesOrder) => {
        seen.push(current.description ?? '');
        await client.request('PATCH', `/api/v3/SalesOrders/${order.type}/${order.orderId}`, {
          body: { description: `other ${seen.length}` },
          headers: { 'if-match': '*' },
        });
        return { description: 'mine' };
      };
      const failure = await client.salesOrders.update(order.type, order.orderId, change, { maxAttempts: 3 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ErpConflictError);
      expect((failure as ErpConflictError).attempts).toBe(3);
      expect(((failure as ErpConflictError).cause as ErpApiError).status).toBe(412);
      // Each attempt saw the other writer's latest value: the change was re-applied to fresh state.
      expect(seen).toEqual(['0', 'other 1', 'other 2']);
      expect((await client.salesOrders.get(order.type, order.orderId)).description).toBe('other 3');
    }, 120_000);

    it('updates a customer with the ETag it read (PUT If-Match) and answers the changed record', async () => {
      const client = await clientFor(WORK_COMPANY);
      const created = await client.customers.create({ name: 'Before' });
      const updated: Customer = await client.customers.update(created.number, (current) => ({ name: `${current.name} and after` }));
      expect(updated.name).toBe('Before and after');
      expect(updated.timeStamp).not.toBe(created.timeStamp);
    }, 60_000);
  });

  describe('webhooks', () => {
    it('verifies a genuine delivery and rejects a tampered body, a wrong secret, an old timestamp and a missing signature', async () => {
      const deliveries: ListenedDelivery[] = [];
      const listener = await startListener({
        baseUrl: system().baseUrl,
        token: await auth.token({ companies: [WORK_COMPANY], scope: 'webhooks:manage' }),
        companyId: WORK_COMPANY,
        eventTypes: ['SALESORDER_CREATED'],
        onDelivery: (delivery) => deliveries.push(delivery),
      });
      const [{ secret }] = listener.subscriptions;
      const client = await clientFor(WORK_COMPANY);
      const customer = await client.customers.create({ name: 'Webhook Customer' });
      const order = await createOrder(client, customer.number, 'hooked');
      const delivery = await waitFor(() => deliveries.find((d) => (d.body.data as { orderId?: string } | undefined)?.orderId === order.orderId), 'the delivery');

      const event = verifyWebhook<{ orderId: string; type: string }>({ payload: delivery.rawBody, headers: delivery.headers, secret });
      expect(event).toEqual(expect.objectContaining({ type: 'SALESORDER_CREATED', companyId: WORK_COMPANY, data: expect.objectContaining({ orderId: order.orderId, type: 'SO' }) }));
      expect(verifyWebhook({ payload: Buffer.from(delivery.rawBody), headers: new Headers(delivery.headers as Record<string, string>), secret: ['whsec_' + randomBytes(32).toString('base64'), secret] }).id).toBe(event.id);

      const tampered = delivery.rawBody.replace('"hooked"', '"hacked"').replace(order.orderId, '999999');
      expect(tampered).not.toBe(delivery.rawBody);
      expect(() => verifyWebhook({ payload: tampered, headers: delivery.headers, secret })).toThrow(WebhookVerificationError);
      const wrongSecret = 'whsec_' + randomBytes(32).toString('base64');
      expect(() => verifyWebhook({ payload: delivery.rawBody, headers: delivery.headers, secret: wrongSecret })).toThrow(WebhookVerificationError);
      // Signed correctly, but 10 minutes old: a replayed capture must not be accepted.
      const old = new Date(Date.now() - 10 * 60_000);
      const oldHeaders = {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign(String(delivery.headers['webhook-id']), old, delivery.rawBody),
      };
      expect(() => verifyWebhook({ payload: delivery.rawBody, headers: oldHeaders, secret })).toThrow(WebhookVerificationError);
      const { ['webhook-signature']: _dropped, ...unsigned } = delivery.headers;
      expect(() => verifyWebhook({ payload: delivery.rawBody, headers: unsigned, secret })).toThrow(WebhookVerificationError);
    }, 120_000);
  });

  describe('errors', () => {
    it('throws ErpAuthError for 401/403, ErpApiError with code and request id for other 4xx, ErpNetworkError when nothing answers', async () => {
      const untrusted = new ErpClient({ baseUrl: system().baseUrl, token: await TestAuth.foreignToken([WORK_COMPANY]), companyId: WORK_COMPANY });
      const unauthorized = await untrusted.customers.get('10001').catch((error: unknown) => error);
      expect(unauthorized).toBeInstanceOf(ErpAuthError);
      expect(unauthorized).toEqual(expect.objectContaining({ status: 401, code: '10101', requestId: expect.any(String) }));

      const readOnly = new ErpClient({ baseUrl: system().baseUrl, token: await auth.token({ companies: [WORK_COMPANY], scope: 'erp:read' }), companyId: WORK_COMPANY });
      const forbidden = await readOnly.customers.create({ name: 'x' }).catch((error: unknown) => error);
      expect(forbidden).toBeInstanceOf(ErpAuthError);
      expect((forbidden as ErpAuthError).status).toBe(403);

      const client = await clientFor(WORK_COMPANY);
      const missing = await client.customers.get('NO-SUCH').catch((error: unknown) => error);
      expect(missing).toBeInstanceOf(ErpApiError);
      expect(missing).not.toBeInstanceOf(ErpAuthError);
      expect(missing).toEqual(expect.objectContaining({ status: 404, code: '10201', requestId: expect.any(String) }));
      const invalid = await client.salesOrders.create({ type: 'SO', customer: { id: 'NO-SUCH' }, orderLines: [] }).catch((error: unknown) => error);
      expect(invalid).toEqual(expect.objectContaining({ status: 400, code: 'validation-failed' }));

      const nowhere = new ErpClient({ baseUrl: 'http://127.0.0.1:9', token: 't', retries: 0 });
      await expect(nowhere.request('GET', '/v1/customer')).rejects.toBeInstanceOf(ErpNetworkError);
    }, 60_000);
  });

  describe('generated types', () => {
    it('libs/client/src/generated/openapi.ts is what `npm run client:generate` makes from the current OpenAPI document (run it when this fails)', async () => {
      // The generator runs as its own process: openapi-typescript loads ES modules that Jest cannot.
      const root = join(__dirname, '../../..');
      const run = promisify(execFile);
      const outcome = await run(process.execPath, ['-r', '@swc-node/register', 'tools/client-codegen/src/main.ts', '--from', system().baseUrl, '--check'], { cwd: root }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code, output: error.stderr }),
      );
      expect(outcome).toEqual({ code: 0, output: expect.stringContaining('is up to date') });
    }, 120_000);
  });
});
