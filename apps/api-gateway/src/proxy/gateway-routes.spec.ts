import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from '@erp/errors';
import type { GatewayConfig } from '../config';
import { DOCUMENT_SETTINGS, UpstreamDocuments } from '../openapi/upstream-documents';
import { GatewayRoutes, ROUTE_SETTINGS } from './gateway-routes';

const V1_HEADERS = [
  { name: 'ipp-company-id', in: 'header', required: false },
  { name: 'ipp-application-type', in: 'header', required: true },
];
const op = (scope: string, parameters: object[] = []) => ({ parameters, security: [{ bearer: [scope] }], responses: { 200: { description: 'ok' } } });

/** Documents as the services write them (paths, v1 header, scopes); customers' also lists an internal path, which must never be routed. */
const DOCUMENTS: Record<string, Record<string, object>> = {
  customers: {
    '/v1/customer': { get: op('erp:read', V1_HEADERS), post: op('erp:write', V1_HEADERS) },
    '/v1/customer/{customerNumber}': { get: op('erp:read', V1_HEADERS), put: op('erp:write', V1_HEADERS) },
    '/api/v3/Customers': { get: op('erp:read') },
    '/internal/v1/customers/{number}': { get: op('erp:read') },
  },
  attachments: {
    '/v1/{endpoint}/{objectId}/Attachment': { get: op('erp:read', V1_HEADERS), post: op('erp:write', V1_HEADERS) },
    '/v1/attachment/{id}': { get: op('erp:read', V1_HEADERS) },
  },
  webhooks: { '/api/webhooks/subscriptions/{id}': { get: op('webhooks:manage'), delete: op('webhooks:manage') } },
};

/** A stand-in service serving its /openapi.json (paths changeable, as a new release would), or down. */
async function fakeService(paths: Record<string, object>) {
  const state = { url: '', up: true, paths, server: undefined as unknown as Server };
  state.server = createServer((request, response) => {
    if (!state.up || request.url !== '/openapi.json') return void response.writeHead(503).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: state.paths }));
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

describe('GatewayRoutes: routes learned from each service’s own document', () => {
  const saved = { documents: { ...DOCUMENT_SETTINGS }, routes: { ...ROUTE_SETTINGS } };
  let services: Record<string, Awaited<ReturnType<typeof fakeService>>>;
  let documents: UpstreamDocuments;
  let routes: GatewayRoutes;

  beforeEach(async () => {
    Object.assign(DOCUMENT_SETTINGS, { startupAttempts: 1, retryMissingAfterMs: 0 });
    Object.assign(ROUTE_SETTINGS, { refreshOnMissAfterMs: 0 });
    services = Object.fromEntries(await Promise.all(Object.entries(DOCUMENTS).map(async ([name, paths]) => [name, await fakeService({ ...paths })])));
    const config = { CUSTOMERS_URL: [services['customers']!.url], ATTACHMENTS_URL: [services['attachments']!.url], WEBHOOKS_URL: [services['webhooks']!.url] } as GatewayConfig;
    documents = new UpstreamDocuments(config);
    routes = new GatewayRoutes(config, documents);
  });

  afterEach(() => {
    documents.onApplicationShutdown();
    for (const service of Object.values(services)) service.server.close();
    Object.assign(DOCUMENT_SETTINGS, saved.documents);
    Object.assign(ROUTE_SETTINGS, saved.routes);
  });

  const start = async () => {
    documents.onApplicationBootstrap();
    await documents.refresh(0);
  };

  it.each([
    ['GET', '/v1/customer?pageSize=10', 'customers', true, 'erp:read'],
    ['PUT', '/v1/customer/10001', 'customers', true, 'erp:write'],
    ['HEAD', '/v1/customer/10001', 'customers', true, 'erp:read'],
    ['GET', '/api/v3/Customers', 'customers', false, 'erp:read'],
    ['POST', '/v1/customer/10001/Attachment', 'attachments', true, 'erp:write'],
    ['GET', '/v1/supplierInvoice/000123/Attachment', 'attachments', true, 'erp:read'],
    ['GET', '/v1/attachment/2b1e?revision=2', 'attachments', true, 'erp:read'],
    ['DELETE', '/api/webhooks/subscriptions/7', 'webhooks', false, 'webhooks:manage'],
  ])('%s %s goes to %s (v1 rules: %s, scope %s), as its document says', async (method, url, upstream, v1, scope) => {
    await start();
    expect(await routes.resolve(method, url)).toMatchObject({ rule: { upstream, v1, scope }, baseUrl: services[upstream]!.url });
  });

  it('routes no path that no document declares, and never an /internal path', async () => {
    await start();
    for (const url of ['/v1/customerX', '/v1/customer/10001/notes', '/api/v3/SalesOrders', '/internal/v1/customers/10001', '/internal']) {
      expect({ url, route: await routes.resolve('GET', url) }).toEqual({ url, route: undefined });
    }
  });

  it('routes a path a service adds in a new release, with no change to the gateway', async () => {
    await start();
    expect(await routes.resolve('GET', '/api/v3/CustomerGroups/VIP')).toBeUndefined();
    services['customers']!.paths['/api/v3/CustomerGroups/{id}'] = { get: op('erp:read') };
    expect(await routes.resolve('GET', '/api/v3/CustomerGroups/VIP')).toMatchObject({ rule: { upstream: 'customers', v1: false, scope: 'erp:read' } });
  });

  it('answers 503, not 404, for an unknown path while a service’s routes were never read; 404 once they are', async () => {
    services['webhooks']!.up = false;
    await start();
    expect(routes.complete()).toBe(false);
    await expect(routes.resolve('GET', '/api/webhooks/subscriptions/7')).rejects.toMatchObject({ status: 503 } satisfies Partial<ApiError>);
    expect(await routes.resolve('GET', '/v1/customer')).toMatchObject({ rule: { upstream: 'customers' } });
    services['webhooks']!.up = true;
    expect(await routes.resolve('GET', '/api/webhooks/subscriptions/7')).toMatchObject({ rule: { upstream: 'webhooks' } });
    expect(await routes.resolve('GET', '/nowhere')).toBeUndefined();
    expect(routes.complete()).toBe(true);
  });
});
