import Decimal from 'decimal.js';
import { DECIMAL_RULE_CASES } from '@erp/decimals';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth, waitUntil, PATIENCE_MS } from '@erp/testing';
import { putInventoryItems } from './support/inventory';

const COMPANY = '4000004';
const ITEM = 'DECIMAL-ITEM';
const auth = new TestAuth();
let testSystem: TestSystem;
let customerNumber: string;

/** What an API answered to a decimal: the exact value it kept, or that it refused it naming the field. */
type Answer = string | 'refused';

/** JSON.parse that keeps every number as the text it was written with (Node's reviver `source`), so no digit is lost on the way to the comparison. */
function parseKeepingNumberText(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown => (typeof value === 'number' ? context?.source : value);
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown);
}

async function post(path: string, body: string, v1: boolean): Promise<Response> {
  const headers = { ...(await auth.headers({ company: COMPANY, applicationType: v1 ? 'decimals-e2e' : null })), 'content-type': 'application/json' };
  return fetch(`${testSystem.system.baseUrl}${path}`, { method: 'POST', headers, body });
}

/** A supplier invoice with one line whose quantity is `json` (as written), read back from the 201 body. */
async function supplierInvoiceAnswer(json: string): Promise<Answer> {
  const response = await post('/v1/supplierInvoice', `{"supplier":{"number":"S-1"},"invoiceLines":[{"quantity":${json},"unitPrice":"1"}]}`, true);
  const text = await response.text();
  if (response.status === 400 && /quantity/.test(JSON.parse(text).ExceptionMessage)) return 'refused';
  if (response.status !== 201) throw new Error(`supplier invoice with quantity ${json}: ${response.status} ${text}`);
  return (parseKeepingNumberText(text) as { invoiceLines: Array<{ quantity: string }> }).invoiceLines[0].quantity;
}

/** A sales order with one line whose quantity is `json` (as written), read back with its lines. */
async function salesOrderAnswer(json: string): Promise<Answer> {
  const response = await post('/api/v3/SalesOrders', `{"type":"SO","customer":{"id":"${customerNumber}"},"orderLines":[{"inventoryId":"${ITEM}","quantity":${json},"unitPrice":"1"}]}`, false);
  const text = await response.text();
  if (response.status === 400 && Object.keys(JSON.parse(text).errors ?? {}).join() === 'orderLines[0].quantity') return 'refused';
  if (response.status !== 201) throw new Error(`sales order with quantity ${json}: ${response.status} ${text}`);
  const read = await fetch(`${testSystem.system.baseUrl}${response.headers.get('location')}?expand=lines`, { headers: await auth.headers({ company: COMPANY, applicationType: null }) });
  return (parseKeepingNumberText(await read.text()) as { lines: Array<{ quantity: string }> }).lines[0].quantity;
}

/** The exact value as canonical text, so 12.50 and 12.5 are one answer. */
const canonical = (answer: Answer): Answer => (answer === 'refused' ? answer : new Decimal(answer).toFixed());

/**
 * The one decimal rule (`@erp/decimals`, docs/api-conventions.md "Decimals") through the gateway:
 * every case of the rule's table is sent as a line quantity to the supplier invoice API (v1) and
 * to the sales order API (v3), running as processes on PostgreSQL, and both give the same answer:
 * the same exact value kept, or both refuse it at the field.
 */
describe('one decimal rule in every API', () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('e2e_decimals', { auth, services: ['customers-v1', 'supplier-invoices-v1', 'sales-orders-v3'] });
    const baseUrl = testSystem.system.baseUrl;
    await putInventoryItems(baseUrl, await auth.headers({ company: COMPANY, applicationType: null }), [ITEM]);
    const customer = await post('/v1/customer', JSON.stringify({ name: 'Decimal Traders AS' }), true);
    customerNumber = ((await customer.json()) as { number: string }).number;
    // The sales-order service learns the customer from its CUSTOMER_CREATED event.
    await waitUntil('the customer reaches sales orders', async () => (await salesOrderAnswer('1').catch(() => 'refused')) === '1', PATIENCE_MS);
  }, 240_000);

  afterAll(async () => {
    await testSystem?.stop();
  }, 120_000);

  it('gives the same answers to the same decimal strings and numbers', async () => {
    const expected = DECIMAL_RULE_CASES.map((c) => ({ json: c.json, supplierInvoices: c.stored ?? 'refused', salesOrders: c.stored ?? 'refused' }));
    const answers = [];
    for (const c of DECIMAL_RULE_CASES) {
      answers.push({ json: c.json, supplierInvoices: canonical(await supplierInvoiceAnswer(c.json)), salesOrders: canonical(await salesOrderAnswer(c.json)) });
    }
    expect(answers).toEqual(expected);
  }, 180_000);
});
