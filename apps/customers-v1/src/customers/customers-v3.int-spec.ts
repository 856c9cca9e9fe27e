import { publishedSchemaValidator } from '@erp/testing';
import type { ProblemBody } from '@erp/errors';
import published from '../../reference/published-v3-customers.json';
import { insertCustomers, startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

const A = '1000001';
const B = '1000002';
const PAGING = '1000003';
let t: CustomersTestApp;
const conforms = publishedSchemaValidator(published);

interface CustomerDto {
  internalId: number;
  id: string;
  name: string;
  status: string;
  addressLine1: string | null;
  country: string | null;
  defaultLocation: { id: string; taxRegistrationId: string | null; countryId: string | null };
}
interface Page {
  value: CustomerDto[];
  totalCount: number;
  nextPage: string | null;
}
type Problem = ProblemBody;

/** v3 headers: no ipp-application-type (a /v1 rule). */
async function get(path: string, company = A): Promise<Response> {
  return t.http.request(path, { headers: await t.auth.headers({ company, applicationType: null }) });
}

async function list(query: string, company = A): Promise<Page> {
  const response = await get(`/api/v3/Customers${query}`, company);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const page = (await response.json()) as Page;
  expect(conforms('CustomerDtoPagedResult', page)).toEqual([]);
  return page;
}

async function problemOf(response: Response, status: number): Promise<Problem> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await response.json()) as Problem;
  expect(conforms('ProblemDetails', problem)).toEqual([]);
  return problem;
}

async function create(company: string, body: Record<string, unknown>): Promise<void> {
  const headers = { ...(await t.auth.headers({ company })), 'content-type': 'application/json' };
  const response = await t.http.request('/v1/customer', { method: 'POST', headers, body: JSON.stringify(body) });
  expect(response.status).toBe(201);
}

const ids = (page: Page) => page.value.map((c) => c.id);

beforeAll(async () => {
  t = await startCustomersTestApp({ CUSTOMER_MAX_PAGE_SIZE: '120' });
  await create(A, {
    name: 'Acme AS',
    corporateId: '999888777',
    vatRegistrationId: 'NO999888777MVA',
    currencyId: 'NOK',
    mainAddress: { addressLine1: 'Storgata 1', addressLine2: 'Bygg B', postalCode: '0155', city: 'Oslo', country: { id: 'NO', name: 'Norway' } },
    mainContact: { name: 'Kari Nordmann', email: 'kari@acme.example', phone1: '+47 22 00 00 00' },
  });
  await create(A, { name: 'Fjord Shipping AB', status: 'OnHold', vatRegistrationId: 'SE556677889901' });
  await create(A, { name: 'Bare Minimum' });
  await create(B, { name: 'Other Company Acme' });
  await insertCustomers(t.sql, PAGING, 250, { prefix: 'P' });
});

afterAll(async () => {
  expect(t.http.serverErrors()).toEqual([]);
  await t.close();
});

describe('GET /api/v3/Customers', () => {
  it('lists the customers in the published CustomerDto shape, in creation order', async () => {
    const page = await list('');
    expect(page).toMatchObject({ totalCount: 3, nextPage: null });
    expect(page.value[0]).toEqual({
      internalId: expect.any(Number),
      id: '10001',
      name: 'Acme AS',
      status: 'Active',
      addressLine1: 'Storgata 1',
      addressLine2: 'Bygg B',
      postalCode: '0155',
      country: 'NO',
      currencyId: 'NOK',
      customerClassId: null,
      salutation: null,
      defaultLocation: {
        internalId: page.value[0].internalId,
        id: 'MAIN',
        name: 'Acme AS',
        corporateId: '999888777',
        countryId: 'NO',
        gln: null,
        taxRegistrationId: 'NO999888777MVA',
        warehouseId: null,
      },
    });
    expect(page.value[2]).toMatchObject({ id: '10003', addressLine1: null, country: null, defaultLocation: { countryId: null } });
  });

  it('filters by text in the number, the name or the VAT registration id, case-insensitively and literally', async () => {
    expect(ids(await list('?filter=acme'))).toEqual(['10001']);
    expect(ids(await list('?filter=10002'))).toEqual(['10002']);
    expect(ids(await list('?filter=se5566'))).toEqual(['10002']);
    expect(ids(await list('?filter=%25'))).toEqual([]);
    expect(ids(await list('?filter='))).toEqual(['10001', '10002', '10003']);
  });

  it('pages with 0-based pageIndex (default pageSize 100, larger cut to the maximum); nextPage carries the filter', async () => {
    const first = await list('', PAGING);
    expect(first.value).toHaveLength(100);
    expect(first).toMatchObject({ totalCount: 250, nextPage: '/api/v3/Customers?pageSize=100&pageIndex=1' });
    const last = await list('?pageIndex=2', PAGING);
    expect(ids(last)[0]).toBe('P00201');
    expect(last.value).toHaveLength(50);
    expect(last.nextPage).toBeNull();
    expect((await list('?pageSize=5000', PAGING)).value).toHaveLength(120);
    const filtered = await list('?filter=p0001&pageSize=3', PAGING);
    expect(ids(filtered)).toEqual(['P00010', 'P00011', 'P00012']);
    expect(filtered).toMatchObject({ totalCount: 10, nextPage: '/api/v3/Customers?filter=p0001&pageSize=3&pageIndex=1' });
    expect(await list('?pageIndex=99', PAGING)).toEqual({ value: [], totalCount: 250, nextPage: null });
  });

  it('answers 400 (problem+json) listing every problem: bad paging and unknown parameters', async () => {
    const problem = await problemOf(await get('/api/v3/Customers?pageSize=0&pageIndex=-1&name=x'), 400);
    expect(Object.keys(problem.errors!).sort()).toEqual(['name', 'pageIndex', 'pageSize'].sort());
    await problemOf(await get('/api/v3/Customers?filter=a%00b'), 400);
    expect(Object.keys((await problemOf(await get('/api/v3/Customers?filter=a%01b'), 400)).errors!)).toEqual(['filter']);
  });

  it("never lists another company's customers", async () => {
    expect(ids(await list('?filter=acme', B))).toEqual(['10001']);
    expect((await list('', B)).value.map((c) => c.name)).toEqual(['Other Company Acme']);
  });

  it('needs a token and erp:read, not ipp-application-type', async () => {
    expect((await t.http.request('/api/v3/Customers')).status).toBe(401);
    const writeOnly = await t.auth.headers({ company: A, applicationType: null, scope: 'erp:write' });
    await problemOf(await t.http.request('/api/v3/Customers', { headers: writeOnly }), 403);
  });
});

describe('GET /api/v3/Customers/{customerId}/locations', () => {
  it('answers the one location MAIN: the main address and contact, in the published shape', async () => {
    const response = await get('/api/v3/Customers/10001/locations');
    expect(response.status).toBe(200);
    const locations = (await response.json()) as unknown[];
    expect(locations.map((l) => conforms('CustomerLocationItemDto', l))).toEqual([[]]);
    expect(locations).toEqual([
      expect.objectContaining({
        id: 'MAIN',
        name: 'Acme AS',
        corporateId: '999888777',
        countryId: 'NO',
        taxRegistrationId: 'NO999888777MVA',
        insurance: false,
        residentialDelivery: false,
        address: { id: expect.any(Number), line1: 'Storgata 1', line2: 'Bygg B', line3: null, postalCode: '0155', city: 'Oslo', country: { id: 'NO', name: 'Norway' }, county: { id: null, name: null }, overridesDefault: false },
        contact: { id: expect.any(Number), name: 'Kari Nordmann', attention: null, email: 'kari@acme.example', phone1: '+47 22 00 00 00', phone2: null, fax: null, overridesDefault: false },
      }),
    ]);
  });

  it('gives a customer without address or contact a location of nulls, still in the published shape', async () => {
    const [location] = (await (await get('/api/v3/Customers/10003/locations')).json()) as Array<{ address: { country: unknown } }>;
    expect(conforms('CustomerLocationItemDto', location)).toEqual([]);
    expect(location.address.country).toEqual({ id: null, name: null });
  });

  it("answers 404 (problem+json) for an unknown customer, another company's and an impossible id", async () => {
    await problemOf(await get('/api/v3/Customers/99999/locations'), 404);
    await problemOf(await get('/api/v3/Customers/10002/locations', B), 404);
    await problemOf(await get(`/api/v3/Customers/${'x'.repeat(40)}/locations`), 404);
  });

  it('answers 400 for query parameters it does not have', async () => {
    const problem = await problemOf(await get('/api/v3/Customers/10001/locations?expand=all'), 400);
    expect(Object.keys(problem.errors!)).toEqual(['expand']);
  });
});
