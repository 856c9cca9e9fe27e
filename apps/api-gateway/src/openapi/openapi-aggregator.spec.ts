import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayConfig } from '../config';
import { OpenApiAggregator } from './openapi-aggregator';
import { DOCUMENT_SETTINGS, UpstreamDocuments } from './upstream-documents';

const doc = (path: string) => ({
  openapi: '3.1.0',
  info: { title: path, version: '1' },
  paths: { [path]: { get: { responses: { 200: { description: 'ok' } } } } },
  components: { schemas: { V1Error: { type: 'object' } } },
});

/** A stand-in service whose /openapi.json answers only while `up`. */
async function fakeService(path: string): Promise<{ url: string; up: boolean; server: Server }> {
  const state = { url: '', up: true, server: undefined as unknown as Server };
  state.server = createServer((request, response) => {
    if (!state.up || request.url !== '/openapi.json') return void response.writeHead(503).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc(path)));
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  return state;
}

describe('OpenApiAggregator', () => {
  const saved = { ...DOCUMENT_SETTINGS };
  afterEach(() => Object.assign(DOCUMENT_SETTINGS, saved));

  it('merges the services that answer, leaves out one that is down, and picks it up on a later request', async () => {
    Object.assign(DOCUMENT_SETTINGS, { startupAttempts: 1, retryMissingAfterMs: 0 });
    const customers = await fakeService('/v1/customer');
    const orders = await fakeService('/api/v3/SalesOrders');
    orders.up = false;
    const documents = new UpstreamDocuments({ CUSTOMERS_URL: [customers.url], SALES_ORDERS_URL: [`${orders.url}/`] } as GatewayConfig);
    try {
      const aggregator = new OpenApiAggregator(documents);
      documents.onApplicationBootstrap();
      const first = JSON.parse(await aggregator.document()) as { paths: object; components: { schemas: object }; 'x-unavailable-services'?: string[] };
      expect(Object.keys(first.paths)).toEqual(['/v1/customer']);
      expect(first['x-unavailable-services']).toEqual(['salesOrders']);

      orders.up = true;
      const second = JSON.parse(await aggregator.document()) as typeof first;
      expect(Object.keys(second.paths)).toEqual(['/v1/customer', '/api/v3/SalesOrders']);
      expect(Object.keys(second.components.schemas)).toEqual(['V1Error']);
      expect(second['x-unavailable-services']).toBeUndefined();
    } finally {
      documents.onApplicationShutdown();
      customers.server.close();
      orders.server.close();
    }
  });
});
