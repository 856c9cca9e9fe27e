import { ErpApiError } from '../errors';
import { ErpClient } from '../erp-client';

interface Call {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

function clientAnswering(answer: () => Response) {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    calls.push({ method: init.method ?? 'GET', url: new URL(String(input)), headers: new Headers(init.headers), body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    return answer();
  }) as typeof globalThis.fetch;
  return { client: new ErpClient({ baseUrl: 'http://erp.test', token: 't', fetch, retries: 0 }), calls };
}

const accepted = () => new Response(null, { status: 202, headers: { etag: '"42"' } });

describe('sales order line operations', () => {
  it('addLines posts { lines } with If-Match and answers the new ETag', async () => {
    const { client, calls } = clientAnswering(accepted);
    const result = await client.salesOrders.addLines('SO', '000123', [{ inventoryId: 'A', quantity: 1, unitPrice: '9.95' }], '"41"');
    expect(result).toEqual({ etag: '"42"' });
    expect(calls[0]).toMatchObject({ method: 'POST', body: { lines: [{ inventoryId: 'A', quantity: 1, unitPrice: '9.95' }] } });
    expect(calls[0].url.pathname).toBe('/api/v3/SalesOrders/SO/000123/lines');
    expect(calls[0].headers.get('if-match')).toBe('"41"');
  });

  it('patchLines sends each line change under its lineId', async () => {
    const { client, calls } = clientAnswering(accepted);
    expect(await client.salesOrders.patchLines('SO', '000123', [{ lineId: 2, quantity: 5 }], '*')).toEqual({ etag: '"42"' });
    expect(calls[0]).toMatchObject({ method: 'PATCH', body: { lines: [{ lineId: 2, quantity: 5 }] } });
    expect(calls[0].headers.get('if-match')).toBe('*');
  });

  it('deleteLines sends the ids comma-separated, as the v3 document describes ids', async () => {
    const { client, calls } = clientAnswering(accepted);
    await client.salesOrders.deleteLines('SO', '000 1', [3, 1, 2], '"41"');
    expect(calls[0].method).toBe('DELETE');
    expect(calls[0].url.pathname + calls[0].url.search).toBe('/api/v3/SalesOrders/SO/000%201/lines?ids=3%2C1%2C2');
    expect(calls[0].body).toBeUndefined();
  });

  it('a refused write is an ErpApiError (a stale ETag is a 412, never retried)', async () => {
    const problem = { type: 'urn:erp:problem:precondition-failed', title: 'Precondition Failed', status: 412 };
    const { client, calls } = clientAnswering(() => new Response(JSON.stringify(problem), { status: 412, headers: { 'content-type': 'application/problem+json' } }));
    const error = await client.salesOrders.deleteLines('SO', '000123', [1], '"1"').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErpApiError);
    expect(error).toMatchObject({ status: 412, code: 'precondition-failed' });
    expect(calls).toHaveLength(1);
  });

  it('an answer without an ETag is an error, not a silent undefined', async () => {
    const { client } = clientAnswering(() => new Response(null, { status: 202 }));
    await expect(client.salesOrders.addLines('SO', '000123', [], '"1"')).rejects.toThrow(/no ETag/);
  });
});

describe('sales order read views', () => {
  const json = (body: unknown) => () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

  it.each([
    ['commissions', 'commissions'],
    ['discounts', 'discounts'],
    ['tax', 'tax'],
    ['rotRut', 'rotrut'],
    ['shipments', 'shipment'],
  ] as const)('%s GETs .../%s and answers the body', async (method, path) => {
    const { client, calls } = clientAnswering(json([{ taxId: 'VAT25' }]));
    expect(await client.salesOrders[method]('SO', '000 1')).toEqual([{ taxId: 'VAT25' }]);
    expect(calls[0].method).toBe('GET');
    expect(calls[0].url.pathname).toBe(`/api/v3/SalesOrders/SO/000%201/${path}`);
  });

  it('another company\'s or an unknown order is an ErpApiError 404', async () => {
    const problem = { type: 'urn:erp:problem:not-found', title: 'Not Found', status: 404 };
    const { client } = clientAnswering(() => new Response(JSON.stringify(problem), { status: 404, headers: { 'content-type': 'application/problem+json' } }));
    await expect(client.salesOrders.tax('SO', '000123')).rejects.toMatchObject({ status: 404 });
  });
});
