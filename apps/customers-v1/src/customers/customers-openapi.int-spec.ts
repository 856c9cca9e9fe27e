import type { OpenApiDoc } from '@erp/openapi';
import { startCustomersTestApp, type CustomersTestApp } from '../testing/customers-test-app';

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
    expect(Object.keys(document.paths!).sort()).toEqual(['/v1/customer', '/v1/customer/{customerNumber}']);
    const put = (document.paths!['/v1/customer/{customerNumber}'] as { put: Operation }).put;
    expect(put.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['If-Match', 'ipp-application-type', 'ipp-company-id']));
    expect(put.responses['412'].content['application/json'].schema.$ref).toBe('#/components/schemas/V1Error');
    expect(document.components!.securitySchemes!.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
