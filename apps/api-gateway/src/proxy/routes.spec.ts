import { resolveRoute, upstreamsFrom } from './routes';

const upstreams = upstreamsFrom({
  customers: ['http://customers'],
  salesOrders: ['http://sales-orders'],
  supplierInvoices: ['http://si'],
  attachments: ['http://att'],
  webhooks: ['http://wh'],
});

describe('resolveRoute', () => {
  it.each([
    ['/api/v3/Customers', 'customers', false],
    ['/api/v3/Customers?filter=acme', 'customers', false],
    ['/api/v3/Customers/10001/locations', 'customers', false],
    ['/api/v3/Inventory', 'salesOrders', false],
    ['/api/v3/Inventory?expand=location', 'salesOrders', false],
    ['/api/v3/Inventory/BOLT', 'salesOrders', false],
    ['/api/v3/PriceClasses/TRADE', 'salesOrders', false],
    ['/api/v3/PriceLists/NOK-2026', 'salesOrders', false],
    ['/api/v3/CurrencyRates', 'salesOrders', false],
    ['/api/v3/SalesOrders/SO/000001', 'salesOrders', false],
    ['/v1/customer/10001', 'customers', true],
  ])('sends %s to %s (v1 rules: %s)', (url, upstream, v1) => {
    expect(resolveRoute(url, upstreams)).toMatchObject({ rule: { upstream, v1 } });
  });

  it('matches whole path segments only', () => {
    expect(resolveRoute('/api/v3/CustomersX', upstreams)).toBeUndefined();
    expect(resolveRoute('/api/v3/InventoryItems', upstreams)).toBeUndefined();
    expect(resolveRoute('/api/v3/PriceListsX', upstreams)).toBeUndefined();
  });

  it('spreads a service\'s requests over its replicas in turn', () => {
    const replicated = upstreamsFrom({ customers: ['http://c1', 'http://c2'] });
    const chosen = [1, 2, 3, 4].map(() => resolveRoute('/v1/customer', replicated)?.baseUrl);
    expect(chosen).toEqual(['http://c1', 'http://c2', 'http://c1', 'http://c2']);
  });
});
