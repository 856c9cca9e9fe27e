import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import {
  ErpApiError,
  ErpAuthError,
  ErpClient,
  ErpConflictError,
  ErpNetworkError,
  verifyWebhook,
  WebhookVerificationError,
  type Customer,
  type SalesOrder,
} from '@erp/client';
import { startWebhookListener, type ListenedDelivery, type RunningSystem, type WebhookListener } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth, waitFor } from '@erp/testing';
import { insertCustomers } from './support/customers';

const EXPORT_COMPANY = '2000001';
const CONCURRENT_COMPANY = '2000002';
const WORK_COMPANY = '2000003';
const auth = new TestAuth();
let system: RunningSystem;
let testSystem: TestSystem | undefined;
let listener: WebhookListener | undefined;
/** Measured figures, written to test-output/client-e2e.json for the report. */
const figures: Record<string, unknown> = {};

/** A fetch that records each request's URL and method and each answer's status (passed as the client's `fetch`). */
function recordingFetch(before?: (url: URL) => Promise<void>) {
  const requests: { method: string; url: URL; status: number }[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    await before?.(url);
    const response = await fetch(input, init);
    requests.push({ method: init?.method ?? 'GET', url, status: response.status });
    return response;
  }) as typeof fetch;
  return { fetch: fetchFn, requests };
}

async function clientFor(company: string, extra: { fetch?: typeof fetch } = {}): Promise<ErpClient> {
  const token = await auth.token({ companies: [company], scope: 'erp:read erp:write' });
  return new ErpClient({ baseUrl: system.baseUrl, token, companyId: company, applicationType: 'client-e2e', ...extra });
}

async function customerNumbers(companyId: string): Promise<string[]> {
  const sql = new Client({ connectionString: system.databaseUrls['customers-v1'] });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ number: string }>('SELECT number FROM customers WHERE company_id = $1', [companyId]);
    return rows.map((r) => r.number);
  } finally {
    await sql.end();
  }
}

/** Sales orders learn customers from events: creating an order right after the customer may meet 400 for a moment. */
async function createOrder(client: ErpClient, customerNumber: string, description: string): Promise<SalesOrder> {
  // Order lines name items of the company's catalogue: the line's item first, through the client.
  await client.inventory.put('C', { description: 'Client e2e item' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return await client.salesOrders.create({ type: 'SO', customer: { id: customerNumber }, description, orderLines: [{ inventoryId: 'C', quantity: 1, unitPrice: 1 }] });
    } catch (error) {
      if (!(error instanceof ErpApiError && error.status === 400) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** `@erp/client` against the whole system as processes, through the gateway. */
describe('@erp/client against the running system', () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('e2e_client', { auth });
    system = testSystem.system;
    await insertCustomers(system.databaseUrls['customers-v1'], EXPORT_COMPANY, 2500, 'E');
    await insertCustomers(system.databaseUrls['customers-v1'], CONCURRENT_COMPANY, 2500, 'C');
    // Generous: the whole system starts as processes, on a machine that may be busy.
  }, 600_000);

  afterAll(async () => {
    mkdirSync(join(__dirname, '../../../test-output'), { recursive: true });
    writeFileSync(join(__dirname, '../../../test-output/client-e2e.json'), `${JSON.stringify(figures, null, 2)}\n`);
    await listener?.stop();
    await testSystem?.stop();
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

  describe('attachments', () => {
    it('round-trips files byte-exact: Buffer and stream uploads, Base64 download and streamed download, a multi-MiB file included', async () => {
      const client = await clientFor(WORK_COMPANY);
      const customer = await client.customers.create({ name: 'Attachment Owner' });
      const owner = { type: 'customer' as const, id: customer.number };

      const small = randomBytes(1000);
      const first = await client.attachments.upload(owner, { fileName: 'Kvittering ø 1.bin', data: small }, { waitForOwnerMs: 30_000 });
      expect(first).toEqual(expect.objectContaining({ name: 'Kvittering ø 1.bin', revision: 1, size: 1000 }));
      expect(await client.attachments.download(first.id)).toEqual(small);
      expect(await buffer(client.attachments.downloadStream(first.id))).toEqual(small);

      const large = randomBytes(6 * 1024 * 1024 + 7);
      const uploadProgress: number[] = [];
      // Uploaded from a stream of 100 KiB chunks: sent chunked, never held whole by the client.
      const chunks = Array.from({ length: Math.ceil(large.length / 102_400) }, (_, i) => large.subarray(i * 102_400, (i + 1) * 102_400));
      const big = await client.attachments.upload(owner, { fileName: 'large.bin', data: Readable.from(chunks), contentType: 'application/x-test', onProgress: (bytes) => uploadProgress.push(bytes) });
      expect(big).toEqual(expect.objectContaining({ size: large.length, contentType: 'application/x-test' }));
      expect(uploadProgress[uploadProgress.length - 1]).toBe(large.length);

      expect((await client.attachments.download(big.id)).equals(large)).toBe(true);
      const downloadProgress: number[] = [];
      const opened = await client.attachments.open(big.id, { onProgress: (bytes) => downloadProgress.push(bytes) });
      expect(opened.size).toBe(large.length);
      expect((await buffer(opened.stream)).equals(large)).toBe(true);
      expect(downloadProgress.length).toBeGreaterThan(1);
      expect(downloadProgress[downloadProgress.length - 1]).toBe(large.length);

      // Same name again: a new revision; the older one stays readable.
      const second = await client.attachments.upload(owner, { fileName: 'Kvittering ø 1.bin', data: Buffer.from('second') });
      expect(second).toEqual(expect.objectContaining({ id: first.id, revision: 2 }));
      expect((await client.attachments.download(first.id)).toString()).toBe('second');
      expect(await client.attachments.download(first.id, { revision: 1 })).toEqual(small);
    }, 180_000);

    it("fetches a supplier invoice's attachment the specification's way: attachment id from the invoice, Base64 decoded", async () => {
      const client = await clientFor(WORK_COMPANY);
      const invoice = await client.supplierInvoices.create({ supplier: { number: 'S-1', name: 'Supplier' }, invoiceLines: [{ description: 'x', quantity: 1, unitPrice: 10 }] });
      const content = randomBytes(3333);
      await client.attachments.upload({ type: 'supplierInvoice', id: invoice.referenceNumber }, { fileName: 'invoice.pdf', data: content, contentType: 'application/pdf' }, { waitForOwnerMs: 30_000 });
      // The invoice lists its attachments from ATTACHMENT_CREATED events: a moment after the upload.
      let withAttachment = await client.supplierInvoices.get(invoice.referenceNumber);
      for (const deadline = Date.now() + 30_000; withAttachment.attachments.length === 0 && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        withAttachment = await client.supplierInvoices.get(invoice.referenceNumber);
      }
      expect(await client.attachments.download(withAttachment.attachments[0].id)).toEqual(content);
    }, 120_000);
  });

  describe('webhooks', () => {
    it('verifies a genuine delivery and rejects a tampered body, a wrong secret, an old timestamp and a missing signature', async () => {
      const deliveries: ListenedDelivery[] = [];
      listener = await startWebhookListener({
        baseUrl: system.baseUrl,
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
      const untrusted = new ErpClient({ baseUrl: system.baseUrl, token: await TestAuth.foreignToken([WORK_COMPANY]), companyId: WORK_COMPANY });
      const unauthorized = await untrusted.customers.get('10001').catch((error: unknown) => error);
      expect(unauthorized).toBeInstanceOf(ErpAuthError);
      expect(unauthorized).toEqual(expect.objectContaining({ status: 401, code: '10101', requestId: expect.any(String) }));

      const readOnly = new ErpClient({ baseUrl: system.baseUrl, token: await auth.token({ companies: [WORK_COMPANY], scope: 'erp:read' }), companyId: WORK_COMPANY });
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
      const outcome = await run(process.execPath, ['-r', '@swc-node/register', 'tools/client-codegen/src/main.ts', '--from', system.baseUrl, '--check'], { cwd: root }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code, output: error.stderr }),
      );
      expect(outcome).toEqual({ code: 0, output: expect.stringContaining('is up to date') });
    }, 120_000);
  });
});
