import type { RunningSystem } from '@erp/dev';
import { startTestSystem, type TestSystem } from '@erp/dev/testing';
import { TestAuth } from '@erp/testing';
import { putInventoryItems } from './support/inventory';

const A = '1000001';
const B = '2000002';
const auth = new TestAuth();
let system: RunningSystem;
let testSystem: TestSystem | undefined;
const statuses: Array<{ path: string; status: number }> = [];

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(`${system.baseUrl}${path}`, init);
  statuses.push({ path, status: response.status });
  return response;
}

async function v3Headers(company: string): Promise<Record<string, string>> {
  return { ...(await auth.headers({ company, applicationType: null })), 'content-type': 'application/json' };
}

/**
 * Sales orders end to end: every service and the gateway as separate processes. The customer is
 * created through /v1/customer and the order sent right after (the sales-order service asks
 * customers-v1 for a customer its event has not brought yet); the order then goes through its whole
 * life through the gateway.
 */
describe('sales orders v3 through the api-gateway', () => {
  beforeAll(async () => {
    testSystem = await startTestSystem('e2e_so', { auth });
    system = testSystem.system;
  }, 120_000);

  afterAll(async () => {
    expect(statuses.filter((s) => s.status >= 500)).toEqual([]);
    await testSystem?.stop();
  });

  it('creates a customer in v1, then creates, reads, lists, patches (with ETags) and deletes its order in v3', async () => {
    const customer = await call('/v1/customer', {
      method: 'POST',
      headers: { ...(await auth.headers({ company: A })), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Gateway Foods AS', currencyId: 'NOK' }),
    });
    expect(customer.status).toBe(201);
    const { number } = (await customer.json()) as { number: string };
    await putInventoryItems(system.baseUrl, await auth.headers({ company: A, applicationType: null }), Array.from({ length: 300 }, (_, i) => `ITEM-${i}`));

    const created = await call('/api/v3/SalesOrders', { method: 'POST', headers: await v3Headers(A), body: JSON.stringify({
      type: 'SO',
      customer: { id: number, order: 'PO-E2E' },
      orderLines: Array.from({ length: 300 }, (_, i) => ({ inventoryId: `ITEM-${i}`, quantity: 2, unitPrice: '0.10' })),
    }) });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const postEtag = created.headers.get('etag')!;
    expect(location).toBe('/api/v3/SalesOrders/SO/000001');
    const order = (await created.json()) as { customer: { name: string }; currencyId: string; totals: { orderTotal: number } };
    expect(order).toMatchObject({ customer: { name: 'Gateway Foods AS' }, currencyId: 'NOK', totals: { orderTotal: 60 } });

    const headers = await v3Headers(A);
    const read = await call(`${location}?expand=lines`, { headers });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(postEtag);
    expect(((await read.json()) as { lines: unknown[] }).lines).toHaveLength(300);

    const page = (await (await call('/api/v3/SalesOrders?expand=lines&pageSize=1000', { headers })).json()) as {
      value: unknown[];
      totalCount: number;
      nextPage: string | null;
    };
    expect(page).toMatchObject({ totalCount: 1, nextPage: null });
    expect(page.value).toHaveLength(1);

    expect((await call(location, { method: 'PATCH', headers, body: JSON.stringify({ note: 'x' }) })).status).toBe(428);
    const patched = await call(location, {
      method: 'PATCH',
      headers: { ...headers, 'if-match': postEtag },
      body: JSON.stringify({ status: 'Hold', lines: [{ operation: 'delete', lineId: 300 }] }),
    });
    expect(patched.status).toBe(202);
    const newEtag = patched.headers.get('etag')!;
    expect(newEtag).not.toBe(postEtag);
    const stale = await call(location, { method: 'PATCH', headers: { ...headers, 'if-match': postEtag }, body: JSON.stringify({ status: 'Open' }) });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    const lines = (await (await call(`${location}/lines?pageSize=100&pageIndex=2`, { headers })).json()) as { value: unknown[]; nextPage: string | null };
    expect(lines.value).toHaveLength(99);
    expect(lines.nextPage).toBeNull();

    const other = await call(location, { headers: await v3Headers(B) });
    expect(other.status).toBe(404);

    const { 'content-type': _none, ...withoutBody } = headers;
    expect((await call(location, { method: 'DELETE', headers: { ...withoutBody, 'if-match': newEtag } })).status).toBe(202);
    expect((await call(location, { headers })).status).toBe(404);
  }, 150_000);

  it('routes /api/v3/Customers to customers-v1 and /api/v3/Inventory to sales-orders-v3, without ipp-application-type', async () => {
    const v3 = await auth.headers({ company: B, applicationType: null });
    const customer = await call('/v1/customer', {
      method: 'POST',
      headers: { ...(await auth.headers({ company: B })), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Routed Foods AS', mainAddress: { city: 'Oslo', country: { id: 'NO', name: 'Norway' } } }),
    });
    expect(customer.status).toBe(201);
    const { number } = (await customer.json()) as { number: string };
    const list = await call(`/api/v3/Customers?filter=${encodeURIComponent('Routed Foods')}`, { headers: v3 });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ value: [{ id: number, name: 'Routed Foods AS', country: 'NO' }], totalCount: 1, nextPage: null });
    const locations = await call(`/api/v3/Customers/${number}/locations`, { headers: v3 });
    expect(await locations.json()).toEqual([expect.objectContaining({ id: 'MAIN', address: expect.objectContaining({ city: 'Oslo' }) })]);
    const missing = await call('/api/v3/Customers/nobody/locations', { headers: v3 });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);

    await putInventoryItems(system.baseUrl, v3, ['ROUTED-1']);
    const items = await call('/api/v3/Inventory?inventoryId=ROUTED-1&expand=all', { headers: v3 });
    expect(items.status).toBe(200);
    expect(await items.json()).toMatchObject({ value: [{ inventoryId: 'ROUTED-1', description: 'Item ROUTED-1', availability: [], attributes: {} }], totalCount: 1 });
  });

  it('refuses requests at the gateway in problem+json before they reach the service', async () => {
    const none = await call('/api/v3/SalesOrders');
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const readOnly = { ...(await auth.headers({ company: A, scope: 'erp:read', applicationType: null })), 'content-type': 'application/json' };
    const write = await call('/api/v3/SalesOrders', { method: 'POST', headers: readOnly, body: '{}' });
    expect(write.status).toBe(403);
  });
});
