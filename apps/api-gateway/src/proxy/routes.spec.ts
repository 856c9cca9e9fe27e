import { resolveRoute } from './routes';

const upstreams = { customers: 'http://customers', salesOrders: 'http://sales-orders/', supplierInvoices: 'http://si', attachments: 'http://att', webhooks: 'http://wh' };

describe('resolveRoute', () => {
  it.each([
    ['/api/v3/Customers', 'customers', false],
    ['/api/v3/Customers?filter=acme', 'customers', false],
    ['/api/v3/Customers/10001/locations', 'customers', false],
    ['/api/v3/Inventory', 'salesOrders', false],
    ['/api/v3/Inventory?expand=location', 'salesOrders', false],
    ['/api/v3/Inventory/BOLT', 'salesOrders', false],
    ['/api/v3/SalesOrders/SO/000001', 'salesOrders', false],
    ['/v1/customer/10001', 'customers', true],
  ])('sends %s to %s (v1 rules: %s)', (url, upstream, v1) => {
    expect(resolveRoute(url, upstreams)).toMatchObject({ rule: { upstream, v1 } });
  });

  it('matches whole path segments only', () => {
    expect(resolveRoute('/api/v3/CustomersX', upstreams)).toBeUndefined();
    expect(resolveRoute('/api/v3/InventoryItems', upstreams)).toBeUndefined();
  });
});
