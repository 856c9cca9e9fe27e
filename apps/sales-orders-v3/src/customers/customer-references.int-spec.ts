import { CustomerEventData, customerLink, type CustomerStatus, INTERNAL_ROUTES } from '@erp/contracts';
import type { InternalApiStub } from '@erp/testing';
import { insertCustomerSnapshots, putInventoryItems, type SalesOrdersTestApp, useSalesOrdersTestApp } from '../testing/sales-orders-test-app';

const A = '1000001';
const B = '2000002';

/**
 * An order names a customer whose event may not have reached this service yet: the snapshot says
 * yes, or customers-v1 (here its internal API's stub, which checks the real service tokens and
 * answers only what the contract allows) is asked. docs/cross-service-reads.md.
 */
describe('sales-orders-v3: the customer an order names, when its event has not arrived', () => {
  const app = useSalesOrdersTestApp('customer-references', async (t) => {
    await putInventoryItems(t, A, ['BOLT']);
    await insertCustomerSnapshots(t, A, [{ id: '10001', name: 'Known by events' }]);
  });
  let t: SalesOrdersTestApp;
  let owner: InternalApiStub;
  beforeAll(() => {
    t = app();
    owner = t.internalApis['customers-v1']!;
  });
  afterEach(() => owner.failWith(undefined));

  function ownerHas(companyId: string, number: string, fields: { name?: string; status?: CustomerStatus; currencyId?: string | null; version?: string } = {}): void {
    owner.answer(companyId, INTERNAL_ROUTES.customer.path(number), CustomerEventData, {
      number,
      name: fields.name ?? `Customer ${number}`,
      status: fields.status ?? 'Active',
      currencyId: fields.currencyId === undefined ? 'EUR' : fields.currencyId,
      version: fields.version ?? '7',
      lastModifiedDateTime: '2026-11-27T10:00:00.000',
      link: customerLink(number),
    });
  }

  async function post(body: object, company = A): Promise<Response> {
    return t.http.request('/api/v3/SalesOrders', { method: 'POST', headers: await t.headers(company), body: JSON.stringify(body) });
  }

  async function snapshot(companyId: string, customerId: string): Promise<{ name: string; status: string; source_version: string } | undefined> {
    const rows = await t.sql.query(`SELECT name, status, source_version::text FROM customer_snapshots WHERE company_id = $1 AND customer_id = $2`, [companyId, customerId]);
    return rows.rows[0];
  }

  const orderCount = async () => Number((await t.sql.query(`SELECT count(*) FROM sales_orders`)).rows[0].count);
  const callsFor = (number: string) => owner.received.filter((c) => c.path === INTERNAL_ROUTES.customer.path(number));

  it('accepts an order for a customer only customers-v1 knows yet, with its name and currency, and keeps what it answered', async () => {
    ownerHas(A, '10100', { name: 'Created a moment ago AS', currencyId: 'EUR', version: '7' });
    const response = await post({ type: 'SO', customer: { id: '10100' }, orderLines: [{ inventoryId: 'BOLT', quantity: 1, unitPrice: '2.00' }] });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ currencyId: 'EUR', customer: { id: '10100', name: 'Created a moment ago AS' } });
    expect(callsFor('10100')).toEqual([expect.objectContaining({ method: 'GET', caller: 'sales-orders-v3', companyId: A })]);
    expect(await snapshot(A, '10100')).toEqual({ name: 'Created a moment ago AS', status: 'Active', source_version: '7' });
    // Known now: the next order asks nobody.
    expect((await post({ type: 'QT', customer: { id: '10100' } })).status).toBe(201);
    expect(callsFor('10100')).toHaveLength(1);
  });

  it('asks nobody for a customer the events brought', async () => {
    expect((await post({ type: 'QT', customer: { id: '10001' } })).status).toBe(201);
    expect(callsFor('10001')).toEqual([]);
  });

  it('refuses a customer customers-v1 does not have for the company, after one call, and writes nothing', async () => {
    ownerHas(B, '10200');
    const before = await orderCount();
    const response = await post({ type: 'SO', customer: { id: '10200' } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: [expect.objectContaining({ code: '0007-UnknownReference', parameters: { property: 'customer.id' } })] });
    // One call, for the caller's company only: another company's customer is never looked up.
    expect(callsFor('10200')).toEqual([expect.objectContaining({ companyId: A })]);
    expect(await orderCount()).toBe(before);
    expect(await snapshot(A, '10200')).toBeUndefined();
  });

  it('confirms an inactive snapshot with customers-v1: a customer re-activated a moment ago is accepted', async () => {
    await insertCustomerSnapshots(t, A, [{ id: '10300', status: 'Inactive' }]);
    ownerHas(A, '10300', { status: 'Active', version: '9' });
    expect((await post({ type: 'SO', customer: { id: '10300' } })).status).toBe(201);
    expect(await snapshot(A, '10300')).toMatchObject({ status: 'Active', source_version: '9' });
  });

  it('answers 503 with Retry-After when customers-v1 cannot be asked, and writes nothing', async () => {
    ownerHas(A, '10400');
    owner.failWith(503);
    const before = await orderCount();
    // Past the recording fetch, whose end-of-suite check counts any 5xx as a failure: this one is the point.
    const response = await fetch(`${t.service.url}/api/v3/SalesOrders`, { method: 'POST', headers: await t.headers(A), body: JSON.stringify({ type: 'SO', customer: { id: '10400' } }) });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // Tried twice (a replica that is starting or draining answers 503), then gave up.
    expect(callsFor('10400')).toHaveLength(2);
    expect(await orderCount()).toBe(before);
    expect(await snapshot(A, '10400')).toBeUndefined();
  });

  it('takes a customer only customers-v1 knows in a PATCH too', async () => {
    const created = await post({ type: 'SO', customer: { id: '10001' } });
    const location = created.headers.get('location')!;
    ownerHas(A, '10500', { name: 'Moved to this one', version: '3' });
    const headers = { ...(await t.headers(A)), 'if-match': created.headers.get('etag')! };
    const patched = await t.http.request(location, { method: 'PATCH', headers, body: JSON.stringify({ customer: { id: '10500' } }) });
    expect(patched.status).toBe(202);
    expect(await patched.json()).toMatchObject({ customer: { id: '10500', name: 'Moved to this one' } });
  });

  it('takes customers only customers-v1 knows in a price class and a price list, and refuses one it does not have', async () => {
    ownerHas(A, '10600');
    ownerHas(A, '10601');
    const headers = await t.headers(A);
    const putClass = await t.http.request('/api/v3/PriceClasses/FRESH', { method: 'PUT', headers, body: JSON.stringify({ customers: ['10600', '10001'] }) });
    expect(putClass.status).toBe(201);
    const putList = await t.http.request('/api/v3/PriceLists/FRESH', {
      method: 'PUT',
      headers,
      body: JSON.stringify({ currencyId: 'NOK', entries: [{ inventoryId: 'BOLT', customerId: '10601', unitPrice: '1.10' }] }),
    });
    expect(putList.status).toBe(201);
    const refused = await t.http.request('/api/v3/PriceClasses/NOBODY', { method: 'PUT', headers, body: JSON.stringify({ customers: ['10699'] }) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ details: [expect.objectContaining({ code: '0007-UnknownReference', parameters: { property: 'customers[0]' } })] });
  });
});
