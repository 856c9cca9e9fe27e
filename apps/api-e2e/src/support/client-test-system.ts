import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ErpApiError, ErpClient, type SalesOrder } from '@erp/client';
import { startWebhookListener, type RunningSystem, type WebhookListener } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';

/** 2,500 customers (E00001, ...) to export (loaded by the client spec's seed). */
export const EXPORT_COMPANY = '2000001';
/** 2,500 customers (C00001, ...) exported while another writer adds more. */
export const CONCURRENT_COMPANY = '2000002';
/** Where the other tests create what they use. */
export const WORK_COMPANY = '2000003';

/** A fetch that records each request's URL and method and each answer's status (passed as the client's `fetch`). */
export function recordingFetch(before?: (url: URL) => Promise<void>) {
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

/** What the client spec uses: the running system, its token issuer, clients of a company and the figures it reports. */
export interface ClientTestSystem {
  system(): RunningSystem;
  auth: TestAuth;
  /** Measured figures, written to test-output/<figuresFile> for the report. */
  figures: Record<string, unknown>;
  clientFor(company: string, extra?: { fetch?: typeof fetch }): Promise<ErpClient>;
  /** The numbers of a company's customers, read from customers-v1's database. */
  customerNumbers(companyId: string): Promise<string[]>;
  /** Sales orders learn customers from events: creating an order right after the customer may meet 400 for a moment. */
  createOrder(client: ErpClient, customerNumber: string, description: string): Promise<SalesOrder>;
  /** A webhook listener that is stopped with the system. */
  startListener(...args: Parameters<typeof startWebhookListener>): Promise<WebhookListener>;
}

/**
 * Starts the system as processes for the calling describe (every service, or `options.services`
 * behind the gateway), runs `options.seed` on it before the first test; at the end writes the
 * figures (when `options.figuresFile` names a file under test-output/) and stops the listeners and
 * the system.
 */
export function useClientTestSystem(options: { label: string; services?: string[]; seed?: (system: RunningSystem) => Promise<void>; figuresFile?: string }): ClientTestSystem {
  const auth = new TestAuth();
  const figures: Record<string, unknown> = {};
  let testSystem: TestSystem | undefined;
  const listeners: WebhookListener[] = [];
  const system = () => {
    if (!testSystem) throw new Error('the client test system is not started (call inside the describe, use in tests)');
    return testSystem.system;
  };
  beforeAll(async () => {
    testSystem = await startTestSystem(options.label, { auth, ...(options.services ? { services: options.services } : {}) });
    await options.seed?.(system());
    // Generous: the whole system starts as processes, on a machine that may be busy.
  }, 600_000);
  afterAll(async () => {
    if (options.figuresFile) {
      mkdirSync(join(__dirname, '../../../../test-output'), { recursive: true });
      writeFileSync(join(__dirname, '../../../../test-output', options.figuresFile), `${JSON.stringify(figures, null, 2)}\n`);
    }
    await Promise.all(listeners.map((listener) => listener.stop()));
    await testSystem?.stop();
  });
  const clientFor: ClientTestSystem['clientFor'] = async (company, extra = {}) => {
    const token = await auth.token({ companies: [company], scope: 'erp:read erp:write' });
    return new ErpClient({ baseUrl: system().baseUrl, token, companyId: company, applicationType: 'client-e2e', ...extra });
  };
  return {
    system,
    auth,
    figures,
    clientFor,
    async customerNumbers(companyId) {
      const sql = new Client({ connectionString: system().databaseUrls['customers-v1'] });
      await sql.connect();
      try {
        const { rows } = await sql.query<{ number: string }>('SELECT number FROM customers WHERE company_id = $1', [companyId]);
        return rows.map((r) => r.number);
      } finally {
        await sql.end();
      }
    },
    async createOrder(client, customerNumber, description) {
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
    },
    async startListener(...args) {
      const listener = await startWebhookListener(...args);
      listeners.push(listener);
      return listener;
    },
  };
}
