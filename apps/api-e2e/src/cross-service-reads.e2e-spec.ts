import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';

/** Each flow this many times; the next call goes as soon as the first one answered. */
const TIMES = 100;
const SERVICES = ['customers-v1', 'supplier-invoices-v1', 'attachments-v1', 'sales-orders-v3'];
/** The services whose consumers keep copies of other services' records. */
const COPYING_SERVICES = ['sales-orders-v3', 'attachments-v1', 'supplier-invoices-v1'];
const auth = new TestAuth();

interface Failure {
  flow: string;
  step: string;
  status: number;
  body: string;
}

/** One system's calls through the gateway, and what went wrong in the flows. */
class Flows {
  readonly failures: Failure[] = [];
  readonly serverErrors: Array<{ path: string; status: number }> = [];

  constructor(
    private readonly system: RunningSystem,
    private readonly company: string,
  ) {}

  async call(path: string, init: { method?: string; body?: unknown; form?: FormData; v3?: boolean } = {}): Promise<Response> {
    const headers = await auth.headers({ company: this.company, applicationType: init.v3 ? null : undefined });
    const body = init.form ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.system.baseUrl}${path}`, { method: init.method ?? 'GET', headers, body });
    if (response.status >= 500) this.serverErrors.push({ path, status: response.status });
    return response;
  }

  private async expect(flow: string, step: string, response: Response, status: number): Promise<Response | undefined> {
    if (response.status === status) return response;
    this.failures.push({ flow, step, status: response.status, body: (await response.text()).slice(0, 300) });
    return undefined;
  }

  async createCustomer(name: string): Promise<string> {
    const created = await this.call('/v1/customer', { method: 'POST', body: { name, currencyId: 'NOK' } });
    if (created.status !== 201) throw new Error(`POST /v1/customer: ${created.status} ${await created.text()}`);
    return ((await created.json()) as { number: string }).number;
  }

  async createInvoice(): Promise<string> {
    const created = await this.call('/v1/supplierInvoice', { method: 'POST', body: { supplier: { number: 'S-1' }, currencyId: 'NOK', invoiceLines: [{ quantity: 1, unitPrice: '10.00' }] } });
    if (created.status !== 201) throw new Error(`POST /v1/supplierInvoice: ${created.status} ${await created.text()}`);
    return ((await created.json()) as { referenceNumber: string }).referenceNumber;
  }

  upload(path: string, name: string): Promise<Response> {
    const form = new FormData();
    form.append('file', new Blob([randomBytes(256)], { type: 'application/pdf' }), name);
    return this.call(path, { method: 'POST', form });
  }

  /** POST /v1/customer, then at once an order for it. */
  async customerThenOrder(i: number): Promise<void> {
    const number = await this.createCustomer(`Order Flow ${i} AS`);
    await this.expect('order', 'POST /api/v3/SalesOrders', await this.call('/api/v3/SalesOrders', { method: 'POST', body: { type: 'SO', customer: { id: number } }, v3: true }), 201);
  }

  /** POST /v1/supplierInvoice, then at once its attachment, then at once the invoice, which lists it. */
  async invoiceThenAttachment(i: number): Promise<void> {
    const reference = await this.createInvoice();
    const uploaded = await this.expect('invoice', 'POST Attachment', await this.upload(`/v1/supplierInvoice/${reference}/Attachment`, `scan-${i}.pdf`), 201);
    if (!uploaded) return;
    const { id } = (await uploaded.json()) as { id: string };
    const invoice = await this.expect('invoice', 'GET invoice', await this.call(`/v1/supplierInvoice/${reference}`), 200);
    const listed = invoice && ((await invoice.json()) as { attachments: Array<{ id: string }> }).attachments.map((a) => a.id);
    if (listed && !listed.includes(id)) this.failures.push({ flow: 'invoice', step: 'attachments[] of the invoice', status: 200, body: `${id} not in ${JSON.stringify(listed)}` });
  }

  /** POST /v1/customer, then at once its attachment. */
  async customerThenAttachment(i: number): Promise<void> {
    const number = await this.createCustomer(`Attachment Flow ${i} AS`);
    await this.expect('customer attachment', 'POST Attachment', await this.upload(`/v1/customer/${number}/Attachment`, `contract-${i}.pdf`), 201);
  }

  async runAll(times: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      await this.customerThenOrder(i);
      await this.invoiceThenAttachment(i);
      await this.customerThenAttachment(i);
    }
  }
}

/** Two clients creating other customers and invoices until stopped: the consumers have a backlog. */
function otherWriters(flows: Flows): { stop(): Promise<number> } {
  let running = true;
  let written = 0;
  const writer = async (w: number) => {
    for (let i = 0; running; i++) {
      await (i % 2 === 0 ? flows.createCustomer(`Busy ${w}-${i} AS`) : flows.createInvoice());
      written++;
    }
  };
  const writers = [writer(1), writer(2)];
  return {
    async stop() {
      running = false;
      await Promise.all(writers);
      return written;
    },
  };
}

async function rowsOf<T>(databaseUrl: string, text: string, values: unknown[]): Promise<T[]> {
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  try {
    return (await sql.query(text, values)).rows as T[];
  } finally {
    await sql.end();
  }
}

/** What the owners have and what the copies say of it, for one company. */
async function ownersAndCopies(system: RunningSystem, company: string) {
  const db = system.databaseUrls;
  const [customers, snapshots, invoices, owners, attachments, listed] = await Promise.all([
    rowsOf<{ number: string; name: string; status: string; version: string }>(db['customers-v1']!, `SELECT number, name, status, version::text FROM customers WHERE company_id = $1 ORDER BY number`, [company]),
    rowsOf<{ number: string; name: string; status: string; version: string }>(db['sales-orders-v3']!, `SELECT customer_id AS number, name, status, source_version::text AS version FROM customer_snapshots WHERE company_id = $1 ORDER BY customer_id`, [company]),
    rowsOf<{ reference: string }>(db['supplier-invoices-v1']!, `SELECT reference_number AS reference FROM supplier_invoices WHERE company_id = $1 ORDER BY reference_number`, [company]),
    rowsOf<{ owner: string }>(db['attachments-v1']!, `SELECT endpoint || '/' || object_id AS owner FROM attachment_owners WHERE company_id = $1 ORDER BY 1`, [company]),
    rowsOf<{ id: string; revision: number }>(db['attachments-v1']!, `SELECT id::text, latest_revision AS revision FROM attachments WHERE company_id = $1 AND owner_endpoint = 'supplierInvoice' ORDER BY id`, [company]),
    rowsOf<{ id: string; revision: number }>(db['supplier-invoices-v1']!, `SELECT attachment_id::text AS id, revision FROM supplier_invoice_attachments WHERE company_id = $1 ORDER BY attachment_id`, [company]),
  ]);
  return {
    owners: { snapshots: customers, owners: [...customers.map((c) => `customer/${c.number}`), ...invoices.map((i) => `supplierInvoice/${i.reference}`)].sort(), attachments },
    copies: { snapshots, owners: owners.map((o) => o.owner), attachments: listed },
  };
}

/**
 * Create, then use at once (docs/cross-service-reads.md): every service and the gateway as
 * processes, the flows an integration runs (a customer then its order; an invoice then its scan,
 * then the invoice listing it; a customer then its attachment), the next call sent as soon as the
 * first one answered. No call may be refused because an event has not arrived.
 */
describe('create, then use at once, across services', () => {
  describe('with every consumer running', () => {
    let testSystem: TestSystem;
    let flows: Flows;
    beforeAll(async () => {
      testSystem = await startTestSystem('e2e_xref', { services: SERVICES, auth });
      flows = new Flows(testSystem.system, '1000001');
    }, 120_000);
    afterAll(async () => {
      expect(flows?.serverErrors).toEqual([]);
      await testSystem?.stop();
    });

    it(`succeeds every time at rest: ${TIMES} of each flow`, async () => {
      await flows.runAll(TIMES);
      expect(flows.failures).toEqual([]);
    }, 300_000);

    it(`succeeds every time beside two clients writing other records: ${TIMES} of each flow`, async () => {
      const writers = otherWriters(flows);
      await flows.runAll(TIMES);
      expect(await writers.stop()).toBeGreaterThan(TIMES);
      expect(flows.failures).toEqual([]);
    }, 300_000);

    it('still refuses, at once, what the owner does not have for the company', async () => {
      // A company of its own with no records, and another company that has customer 10001 and invoice 000001.
      const mine = new Flows(testSystem.system, '5000005');
      const other = new Flows(testSystem.system, '6000006');
      const theirCustomer = await other.createCustomer('Only theirs AS');
      const theirInvoice = await other.createInvoice();
      const order = await mine.call('/api/v3/SalesOrders', { method: 'POST', body: { type: 'SO', customer: { id: theirCustomer } }, v3: true });
      expect(order.status).toBe(400);
      expect(await order.json()).toMatchObject({ details: [expect.objectContaining({ code: '0007-UnknownReference' })] });
      expect((await mine.upload(`/v1/customer/${theirCustomer}/Attachment`, 'x.pdf')).status).toBe(404);
      expect((await mine.upload(`/v1/supplierInvoice/${theirInvoice}/Attachment`, 'x.pdf')).status).toBe(404);
      expect((await mine.upload('/v1/supplierInvoice/999999/Attachment', 'x.pdf')).status).toBe(404);
      expect([...mine.serverErrors, ...other.serverErrors]).toEqual([]);
    });

    it('routes no /internal path: a client cannot reach the internal API through the gateway', async () => {
      expect((await flows.call('/internal/v1/customers/10001')).status).toBe(404);
      expect((await flows.call('/internal/openapi.json')).status).toBe(404);
      expect((await flows.call('/internal/v1/attachment-events', { method: 'POST', body: {} })).status).toBe(404);
    });
  });

  describe('with the consumers that keep the copies stopped for the whole test', () => {
    let testSystem: TestSystem;
    let flows: Flows;
    const company = '3000003';
    beforeAll(async () => {
      testSystem = await startTestSystem('e2e_xref_off', { services: SERVICES, auth, env: { KAFKA_CONSUMER_GROUPS_OFF: '*' } });
      flows = new Flows(testSystem.system, company);
    }, 120_000);
    afterAll(async () => {
      expect(flows?.serverErrors).toEqual([]);
      await testSystem?.stop();
    });

    it(`succeeds every time: ${TIMES} of each flow`, async () => {
      await flows.runAll(TIMES);
      expect(flows.failures).toEqual([]);
    }, 300_000);

    it("ends with every copy equal to the owners' data once the consumers run again, nothing duplicated or older", async () => {
      const { system } = testSystem;
      for (const service of COPYING_SERVICES) await system.restart(service, { signal: 'SIGTERM', env: { KAFKA_CONSUMER_GROUPS_OFF: '' } });
      const deadline = Date.now() + 120_000;
      let state = await ownersAndCopies(system, company);
      while (JSON.stringify(state.copies) !== JSON.stringify(state.owners) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        state = await ownersAndCopies(system, company);
      }
      expect(state.owners.snapshots).toHaveLength(2 * TIMES);
      expect(state.owners.attachments).toHaveLength(TIMES);
      expect(state.copies).toEqual(state.owners);
    }, 180_000);
  });
});
