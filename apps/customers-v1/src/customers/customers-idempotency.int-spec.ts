import { randomUUID } from 'node:crypto';
import { KeyedAnswers } from '@erp/idempotency';
import { describeIdempotentWriteRules } from '@erp/testing';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
const B = '2000002';
let t: CustomersTestApp;
let made = 0;

/** Customers and CUSTOMER_* outbox rows of a company. */
async function effects(company: string): Promise<Record<string, number>> {
  const { rows } = await t.sql.query<{ customers: number; events: number }>(
    `SELECT (SELECT count(*)::int FROM customers WHERE company_id = $1) AS customers,
            (SELECT count(*)::int FROM outbox WHERE payload->>'companyId' = $1) AS events`,
    [company],
  );
  return rows[0]!;
}

describe('customers-v1 keyed writes', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  describeIdempotentWriteRules('POST /v1/customer', {
    url: () => t.service.url,
    auth: () => t.auth,
    sql: () => t.sql,
    company: A,
    otherCompany: B,
    operation: 'POST /v1/customer',
    effects,
    request: (variant) => ({
      method: 'POST',
      path: '/v1/customer',
      // Each test its own customer; `other` another body for the same key.
      body: { name: `${variant === 'other' ? 'Other' : 'Keyed'} Customer ${++made}`, currencyId: 'NOK' },
    }),
  });

  it('keeps an answer for the retention (24 h by default), then removes it: the key is then a new request', async () => {
    const key = randomUUID();
    const post = async () => {
      const headers = { ...(await t.auth.headers({ company: A })), 'content-type': 'application/json', 'idempotency-key': key };
      const response = await fetch(`${t.service.url}/v1/customer`, { method: 'POST', headers, body: JSON.stringify({ name: 'Kept a day' }) });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed'), number: ((await response.json()) as { number: string }).number };
    };
    const first = await post();
    const sweeper = t.service.app.get(KeyedAnswers);
    expect(await sweeper.sweep(new Date(Date.now() + 23 * 3_600_000))).toBe(0);
    expect(await post()).toEqual({ ...first, replayed: 'true' });
    expect(await sweeper.sweep(new Date(Date.now() + 25 * 3_600_000))).toBeGreaterThan(0);
    const later = await post();
    expect([later.status, later.replayed]).toEqual([201, null]);
    expect(later.number).not.toBe(first.number);
  });
});
