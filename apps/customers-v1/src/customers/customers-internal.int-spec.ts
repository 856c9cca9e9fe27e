import { CustomerEventData, INTERNAL_ROUTES, readInternalBody } from '@erp/contracts';
import { describeInternalRouteRules } from '@erp/testing';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
const B = '2000002';
const CALLER = 'sales-orders-v3';
let t: CustomersTestApp;
let number: string;

async function create(company: string, body: object): Promise<string> {
  const response = await t.http.request('/v1/customer', {
    method: 'POST',
    headers: { ...(await t.auth.headers({ company })), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return response.headers.get('location')!.split('/').pop()!;
}

async function internalRead(company: string, customer: string): Promise<Response> {
  return t.http.request(INTERNAL_ROUTES.customer.path(customer), { headers: await t.auth.serviceHeaders(CALLER, 'customers-v1', company) });
}

/** The data of the latest event of a customer, as the outbox holds it. */
async function latestEventData(customer: string): Promise<unknown> {
  const rows = await t.sql.query(`SELECT payload FROM outbox WHERE payload->>'subject' = $1 ORDER BY sequence DESC LIMIT 1`, [customer]);
  return rows.rows[0].payload.data;
}

describe('customers-v1 internal read: GET /internal/v1/customers/{number} (docs/cross-service-reads.md)', () => {
  beforeAll(async () => {
    t = await startCustomersTestApp();
    number = await create(A, { name: 'Fjord Fisk AS', currencyId: 'NOK' });
  });
  afterAll(async () => {
    expect(t.http.serverErrors()).toEqual([]);
    await t.close();
  });

  it('answers the customer exactly as its latest event carries it, in the event contract', async () => {
    const response = await internalRead(A, number);
    expect(response.status).toBe(200);
    const body: unknown = await response.json();
    expect(() => readInternalBody(CustomerEventData, body, 'the answer')).not.toThrow();
    expect(body).toEqual(await latestEventData(number));
  });

  it('answers the current version after a change, as CUSTOMER_UPDATED carries it', async () => {
    const updated = await t.http.request(`/v1/customer/${number}`, {
      method: 'PUT',
      headers: { ...(await t.auth.headers({ company: A })), 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'Inactive' }),
    });
    expect(updated.status).toBe(204);
    const body = (await (await internalRead(A, number)).json()) as CustomerEventData;
    expect(body.status).toBe('Inactive');
    expect(body).toEqual(await latestEventData(number));
  });

  it('answers 404 for a number the company does not have, and for another company\'s customer', async () => {
    const missing = await internalRead(A, '99999');
    // The route's own 404 (its header says so): "no such customer", not "no such route".
    expect([missing.status, missing.headers.get('erp-internal-api')]).toEqual([404, '1']);
    // Numbers are per company: B's second customer is a number A does not have.
    await create(B, { name: 'Other Company AB' });
    const theirs = await create(B, { name: 'Other Company Two AB' });
    expect((await internalRead(A, theirs)).status).toBe(404);
    expect((await internalRead(B, theirs)).status).toBe(200);
  });

  describeInternalRouteRules({ service: 'customers-v1', caller: CALLER, app: () => t, company: A, path: () => INTERNAL_ROUTES.customer.path(number) });

  it('documents the route in /internal/openapi.json, never in the public document', async () => {
    const internal = (await (await t.http.request('/internal/openapi.json')).json()) as { paths: Record<string, unknown>; components: { securitySchemes: Record<string, unknown> } };
    expect(Object.keys(internal.paths)).toEqual(['/internal/v1/customers/{number}']);
    expect(internal.components.securitySchemes).toHaveProperty('serviceToken');
    const published = (await (await t.http.request('/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(published.paths).filter((path) => path.startsWith('/internal'))).toEqual([]);
    expect(Object.keys(published.paths)).toContain('/v1/customer');
  });
});
