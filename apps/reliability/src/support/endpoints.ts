import type { CompanyFixture } from './system';

export type Family = 'v1' | 'v3' | 'webhooks';
export type BodyKind = 'none' | 'json' | 'multipart';

/**
 * Every endpoint and method of every service, as the gateway exposes it. The suites (tenant walls,
 * hostile input) iterate over this table: adding an endpoint is one line here.
 */
export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  family: Family;
  /** The scope the endpoint needs. */
  scope: 'erp:read' | 'erp:write' | 'webhooks:manage';
  /** The path for a fixture's records (ids from `f`); list endpoints ignore them. */
  path: (f: CompanyFixture) => string;
  /** True when the path addresses one record of the fixture (a tenant-wall target). */
  addressesRecord: boolean;
  body: BodyKind;
  /** A valid body for the fixture's record (used where a valid request is needed). */
  validBody?: (f: CompanyFixture) => unknown;
  /** Needs If-Match (v3 writes). */
  ifMatch?: boolean;
}

const so = (f: CompanyFixture) => `/api/v3/SalesOrders/${f.orderType}/${f.orderId}`;

export const ENDPOINTS: Endpoint[] = [
  // customers-v1
  { name: 'list customers', method: 'GET', family: 'v1', scope: 'erp:read', path: () => '/v1/customer', addressesRecord: false, body: 'none' },
  { name: 'get customer', method: 'GET', family: 'v1', scope: 'erp:read', path: (f) => `/v1/customer/${f.customerNumber}`, addressesRecord: true, body: 'none' },
  { name: 'create customer', method: 'POST', family: 'v1', scope: 'erp:write', path: () => '/v1/customer', addressesRecord: false, body: 'json', validBody: () => ({ name: 'Created by suite' }) },
  { name: 'update customer', method: 'PUT', family: 'v1', scope: 'erp:write', path: (f) => `/v1/customer/${f.customerNumber}`, addressesRecord: true, body: 'json', validBody: () => ({ status: 'OnHold' }) },
  // supplier-invoices-v1
  { name: 'list supplier invoices', method: 'GET', family: 'v1', scope: 'erp:read', path: () => '/v1/supplierInvoice', addressesRecord: false, body: 'none' },
  { name: 'get supplier invoice', method: 'GET', family: 'v1', scope: 'erp:read', path: (f) => `/v1/supplierInvoice/${f.invoiceNumber}`, addressesRecord: true, body: 'none' },
  { name: 'create supplier invoice', method: 'POST', family: 'v1', scope: 'erp:write', path: () => '/v1/supplierInvoice', addressesRecord: false, body: 'json', validBody: () => ({ supplier: { number: 'S-1' } }) },
  { name: 'update supplier invoice', method: 'PUT', family: 'v1', scope: 'erp:write', path: (f) => `/v1/supplierInvoice/${f.invoiceNumber}`, addressesRecord: true, body: 'json', validBody: () => ({ description: 'changed' }) },
  // attachments-v1
  { name: 'upload customer attachment', method: 'POST', family: 'v1', scope: 'erp:write', path: (f) => `/v1/customer/${f.customerNumber}/Attachment`, addressesRecord: true, body: 'multipart' },
  { name: 'upload invoice attachment', method: 'POST', family: 'v1', scope: 'erp:write', path: (f) => `/v1/supplierInvoice/${f.invoiceNumber}/Attachment`, addressesRecord: true, body: 'multipart' },
  { name: 'get attachment', method: 'GET', family: 'v1', scope: 'erp:read', path: (f) => `/v1/attachment/${f.attachmentId}`, addressesRecord: true, body: 'none' },
  // sales-orders-v3
  { name: 'list sales orders', method: 'GET', family: 'v3', scope: 'erp:read', path: () => '/api/v3/SalesOrders', addressesRecord: false, body: 'none' },
  { name: 'list sales orders of a type', method: 'GET', family: 'v3', scope: 'erp:read', path: (f) => `/api/v3/SalesOrders/${f.orderType}`, addressesRecord: false, body: 'none' },
  { name: 'get sales order', method: 'GET', family: 'v3', scope: 'erp:read', path: so, addressesRecord: true, body: 'none' },
  { name: 'create sales order', method: 'POST', family: 'v3', scope: 'erp:write', path: () => '/api/v3/SalesOrders', addressesRecord: false, body: 'json', validBody: (f) => ({ type: 'SO', customer: { id: f.customerNumber }, orderLines: [{ inventoryId: f.inventoryId, quantity: 1, unitPrice: 1 }] }) },
  { name: 'patch sales order', method: 'PATCH', family: 'v3', scope: 'erp:write', path: so, addressesRecord: true, body: 'json', ifMatch: true, validBody: () => ({ description: 'changed' }) },
  { name: 'delete sales order', method: 'DELETE', family: 'v3', scope: 'erp:write', path: so, addressesRecord: true, body: 'none', ifMatch: true },
  { name: 'list order lines', method: 'GET', family: 'v3', scope: 'erp:read', path: (f) => `${so(f)}/lines`, addressesRecord: true, body: 'none' },
  { name: 'get order line', method: 'GET', family: 'v3', scope: 'erp:read', path: (f) => `${so(f)}/lines/${f.lineId}`, addressesRecord: true, body: 'none' },
  { name: 'add order lines', method: 'POST', family: 'v3', scope: 'erp:write', path: (f) => `${so(f)}/lines`, addressesRecord: true, body: 'json', ifMatch: true, validBody: (f) => ({ lines: [{ inventoryId: f.inventoryId, quantity: 1, unitPrice: 1 }] }) },
  { name: 'patch order lines', method: 'PATCH', family: 'v3', scope: 'erp:write', path: (f) => `${so(f)}/lines`, addressesRecord: true, body: 'json', ifMatch: true, validBody: (f) => ({ lines: [{ lineId: f.lineId, quantity: 2 }] }) },
  { name: 'delete order lines', method: 'DELETE', family: 'v3', scope: 'erp:write', path: (f) => `${so(f)}/lines?ids=${f.lineId}`, addressesRecord: true, body: 'none', ifMatch: true },
  ...(['commissions', 'discounts', 'tax', 'rotrut', 'shipment'] as const).map(
    (view): Endpoint => ({ name: `get order ${view}`, method: 'GET', family: 'v3', scope: 'erp:read', path: (f) => `${so(f)}/${view}`, addressesRecord: true, body: 'none' }),
  ),
  // customers-v1, the v3 view
  { name: 'list customers (v3)', method: 'GET', family: 'v3', scope: 'erp:read', path: () => '/api/v3/Customers', addressesRecord: false, body: 'none' },
  { name: 'customer locations (v3)', method: 'GET', family: 'v3', scope: 'erp:read', path: (f) => `/api/v3/Customers/${f.customerNumber}/locations`, addressesRecord: true, body: 'none' },
  // sales-orders-v3, inventory
  { name: 'list inventory', method: 'GET', family: 'v3', scope: 'erp:read', path: () => '/api/v3/Inventory?expand=all', addressesRecord: false, body: 'none' },
  { name: 'put inventory item', method: 'PUT', family: 'v3', scope: 'erp:write', path: (f) => `/api/v3/Inventory/${f.inventoryId}`, addressesRecord: false, body: 'json', validBody: () => ({ description: 'Item changed by suite', availability: [{ warehouseId: 'MAIN', quantityOnHand: 1 }] }) },
  // webhook-publisher
  { name: 'list publishers', method: 'GET', family: 'webhooks', scope: 'webhooks:manage', path: () => '/api/webhooks/publishers', addressesRecord: false, body: 'none' },
  { name: 'list subscriptions', method: 'GET', family: 'webhooks', scope: 'webhooks:manage', path: () => '/api/webhooks/subscriptions', addressesRecord: false, body: 'none' },
  { name: 'create subscription', method: 'POST', family: 'webhooks', scope: 'webhooks:manage', path: () => '/api/webhooks/subscriptions', addressesRecord: false, body: 'json', validBody: () => ({ publisher: 'vendor.net.erp.salesorderservice-publisher', eventTypes: ['SALESORDER_CREATED'], url: 'http://127.0.0.1:9/x' }) },
  { name: 'get subscription', method: 'GET', family: 'webhooks', scope: 'webhooks:manage', path: (f) => `/api/webhooks/subscriptions/${f.subscriptionId}`, addressesRecord: true, body: 'none' },
  { name: 'patch subscription', method: 'PATCH', family: 'webhooks', scope: 'webhooks:manage', path: (f) => `/api/webhooks/subscriptions/${f.subscriptionId}`, addressesRecord: true, body: 'json', validBody: () => ({ enabled: false }) },
  { name: 'delete subscription', method: 'DELETE', family: 'webhooks', scope: 'webhooks:manage', path: (f) => `/api/webhooks/subscriptions/${f.subscriptionId}`, addressesRecord: true, body: 'none' },
  { name: 'rotate subscription secret', method: 'POST', family: 'webhooks', scope: 'webhooks:manage', path: (f) => `/api/webhooks/subscriptions/${f.subscriptionId}/rotate-secret`, addressesRecord: true, body: 'none' },
  { name: 'subscription deliveries', method: 'GET', family: 'webhooks', scope: 'webhooks:manage', path: (f) => `/api/webhooks/subscriptions/${f.subscriptionId}/deliveries`, addressesRecord: true, body: 'none' },
  { name: 'replay subscription', method: 'POST', family: 'webhooks', scope: 'webhooks:manage', path: (f) => `/api/webhooks/subscriptions/${f.subscriptionId}/replay`, addressesRecord: true, body: 'json', validBody: () => ({ since: '2020-01-01T00:00:00Z' }) },
];

/** The same fixture with every id replaced by one that never existed. */
export function neverExisting(f: CompanyFixture): CompanyFixture {
  return {
    ...f,
    customerNumber: '99999',
    invoiceNumber: '999999',
    orderId: '999999',
    lineId: 999999,
    attachmentId: '00000000-0000-4000-8000-000000000000',
    subscriptionId: '00000000-0000-4000-8000-000000000001',
  };
}

/** A request for an endpoint with its valid body (or a one-file multipart form). */
export function requestInit(endpoint: Endpoint, f: CompanyFixture, headers: Record<string, string>): RequestInit {
  const init: RequestInit = { method: endpoint.method, headers: { ...headers } };
  const h = init.headers as Record<string, string>;
  if (endpoint.family !== 'v1') delete h['ipp-application-type'];
  if (endpoint.ifMatch) h['if-match'] = '*';
  if (endpoint.body === 'json') {
    h['content-type'] = 'application/json';
    init.body = JSON.stringify(endpoint.validBody ? endpoint.validBody(f) : {});
  } else if (endpoint.body === 'multipart') {
    delete h['content-type'];
    const form = new FormData();
    form.append('file', new Blob(['suite bytes']), 'suite.txt');
    init.body = form;
  } else {
    delete h['content-type'];
  }
  return init;
}
