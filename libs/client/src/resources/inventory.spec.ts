import { ErpClient } from '../erp-client';

interface Call {
  method: string;
  url: URL;
  body: unknown;
}

function clientAnswering(answers: Array<() => Response>) {
  const calls: Call[] = [];
  const fetch = (async (input: string | URL, init: RequestInit = {}) => {
    calls.push({ method: init.method ?? 'GET', url: new URL(String(input)), body: init.body === undefined ? undefined : JSON.parse(String(init.body)) });
    return answers[calls.length - 1]();
  }) as typeof globalThis.fetch;
  return { client: new ErpClient({ baseUrl: 'http://erp.test', token: 't', fetch, retries: 0 }), calls };
}

const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('inventory', () => {
  it('list sends the filters as repeated parameters and expand comma-separated, and follows nextPage', async () => {
    const { client, calls } = clientAnswering([
      json({ value: [{ inventoryId: 'A' }], totalCount: 2, nextPage: '/api/v3/Inventory?inventoryId=A&inventoryId=B&pageSize=1&pageIndex=1' }),
      json({ value: [{ inventoryId: 'B' }], totalCount: 2, nextPage: null }),
    ]);
    const items = [];
    for await (const item of client.inventory.list({ inventoryId: ['A', 'B'], attributeFilter: ['WEBSHOP:1'] }, { expand: ['Location', 'Attribute'], pageSize: 1 })) items.push(item.inventoryId);
    expect(items).toEqual(['A', 'B']);
    expect(calls[0].url.searchParams.getAll('inventoryId')).toEqual(['A', 'B']);
    expect(calls[0].url.searchParams.get('attributeFilter')).toBe('WEBSHOP:1');
    expect(calls[0].url.searchParams.get('expand')).toBe('Location,Attribute');
    expect(calls[1].url.search).toBe('?inventoryId=A&inventoryId=B&pageSize=1&pageIndex=1');
  });

  it('put sends the whole item to /api/v3/Inventory/{inventoryId} and answers the item', async () => {
    const { client, calls } = clientAnswering([json({ inventoryId: 'A/1', availability: [] }, 201)]);
    expect(await client.inventory.put('A/1', { description: 'Bolt' })).toEqual({ inventoryId: 'A/1', availability: [] });
    expect(calls[0]).toMatchObject({ method: 'PUT', body: { description: 'Bolt' } });
    expect(calls[0].url.pathname).toBe('/api/v3/Inventory/A%2F1');
  });
});

describe('customers, the v3 view', () => {
  it('listV3 sends filter and pageSize to /api/v3/Customers; locations reads the one customer', async () => {
    const { client, calls } = clientAnswering([json({ value: [{ id: '10001' }], totalCount: 1, nextPage: null }), json([{ id: 'MAIN' }])]);
    const ids = [];
    for await (const customer of client.customers.listV3({ filter: 'acme' }, { pageSize: 10 })) ids.push(customer.id);
    expect(ids).toEqual(['10001']);
    expect(calls[0].url.pathname).toBe('/api/v3/Customers');
    expect(calls[0].url.search).toBe('?filter=acme&pageSize=10');
    expect(await client.customers.locations('10001')).toEqual([{ id: 'MAIN' }]);
    expect(calls[1].url.pathname).toBe('/api/v3/Customers/10001/locations');
  });
});
