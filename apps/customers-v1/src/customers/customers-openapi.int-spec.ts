import type { OpenApiDoc } from '@erp/openapi';
import { insertCustomers, startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

describe('customers-v1 /openapi.json', () => {
  let app: CustomersTestApp;
  beforeAll(async () => {
    app = await startCustomersTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves its OpenAPI 3.1 document without a token', async () => {
    const response = await fetch(`${app.service.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as OpenApiDoc;
    type Operation = { parameters: { name: string }[]; responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths!).sort()).toEqual(['/api/v3/Customers', '/api/v3/Customers/{customerId}/locations', '/v1/customer', '/v1/customer/{customerNumber}']);
    // The v3 view: the published document's operationIds and schema names, problem+json errors, no ipp-application-type.
    const v3List = (document.paths!['/api/v3/Customers'] as { get: Operation & { operationId: string } }).get;
    expect(v3List.operationId).toBe('Customers_GetList_');
    expect(v3List.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/CustomerDtoPagedResult');
    expect(v3List.parameters.map((p) => p.name)).not.toContain('ipp-application-type');
    const locations = (document.paths!['/api/v3/Customers/{customerId}/locations'] as { get: Operation & { operationId: string } }).get;
    expect(locations.operationId).toBe('Customers_GetCustomerLocationList_customerIdlocations');
    expect(locations.responses['404'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/Problem');
    const put = (document.paths!['/v1/customer/{customerNumber}'] as { put: Operation }).put;
    expect(put.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['If-Match', 'ipp-application-type', 'ipp-company-id']));
    expect(put.responses['412'].content['application/json'].schema.$ref).toBe('#/components/schemas/V1Error');
    expect(document.components!.securitySchemes!.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('states the page maximum the service enforces, from the same setting (CUSTOMER_MAX_PAGE_SIZE)', async () => {
    const small = await startCustomersTestApp({ CUSTOMER_MAX_PAGE_SIZE: '250' });
    try {
      const document = (await (await fetch(`${small.service.url}/openapi.json`)).json()) as OpenApiDoc;
      type Parameter = { name: string; description: string; schema: { default?: number } };
      const list = (document.paths!['/v1/customer'] as { get: { parameters: Parameter[] } }).get;
      const pageSize = list.parameters.find((p) => p.name === 'pageSize')!;
      expect(pageSize.schema.default).toBe(250);
      expect(pageSize.description).toContain('maximum 250');
      await insertCustomers(small.sql, '1000001', 260);
      const headers = await small.auth.headers({ company: '1000001' });
      const page = await fetch(`${small.service.url}/v1/customer?pageSize=100000`, { headers });
      expect(page.status).toBe(200);
      const records = (await page.json()) as { metadata: { maxPageSize: number } }[];
      expect(records.length).toBe(250);
      expect(new Set(records.map((record) => record.metadata.maxPageSize))).toEqual(new Set([250]));
    } finally {
      await small.close();
    }
  });
});
