import { CliError } from './cli-error';
import { ExitCode } from './exit-codes';

/** How one CLI resource name maps onto the API: family (paging rules), paths and default columns. */
export interface ResourceSpec {
  name: string;
  family: 'v1' | 'v3';
  listPath: string;
  /** The record's path for `get`; throws a usage error for an id of the wrong shape. */
  itemPath(id: string): string;
  /** Columns (dot paths) of `list --output table`. */
  tableColumns: string[];
}

const encode = encodeURIComponent;

export const RESOURCES: Record<string, ResourceSpec> = {
  customers: {
    name: 'customers',
    family: 'v1',
    listPath: '/v1/customer',
    itemPath: (id) => `/v1/customer/${encode(id)}`,
    tableColumns: ['number', 'name', 'status', 'mainAddress.city', 'mainAddress.country.id', 'currencyId', 'lastModifiedDateTime'],
  },
  // The v3 view of the customers (GET /api/v3/Customers; filter=<text>); one customer: `erp get customers`, its locations: `erp locations`.
  'customers-v3': {
    name: 'customers-v3',
    family: 'v3',
    listPath: '/api/v3/Customers',
    itemPath: () => {
      throw new CliError(ExitCode.Usage, 'customers-v3 is a list only: erp get customers <number> reads one customer, erp locations <number> its locations');
    },
    tableColumns: ['id', 'name', 'status', 'addressLine1', 'postalCode', 'country', 'currencyId', 'defaultLocation.taxRegistrationId'],
  },
  // GET /api/v3/Inventory (filters inventoryId, warehouseId, locationId, attributeFilter, modifiedSince, expand).
  inventory: {
    name: 'inventory',
    family: 'v3',
    listPath: '/api/v3/Inventory',
    itemPath: () => {
      throw new CliError(ExitCode.Usage, 'inventory is a list only: erp list inventory -f inventoryId=<id> reads one item');
    },
    tableColumns: ['inventoryId', 'description', 'baseUnit', 'availability.0.warehouseId', 'availability.0.quantityOnHand', 'availability.0.quantityAvailable'],
  },
  'supplier-invoices': {
    name: 'supplier-invoices',
    family: 'v1',
    listPath: '/v1/supplierInvoice',
    itemPath: (id) => `/v1/supplierInvoice/${encode(id)}`,
    tableColumns: ['referenceNumber', 'documentType', 'status', 'supplier.number', 'supplier.name', 'date', 'dueDate', 'amount', 'balance', 'currencyId'],
  },
  'sales-orders': {
    name: 'sales-orders',
    family: 'v3',
    listPath: '/api/v3/SalesOrders',
    itemPath: (id) => {
      const { type, orderId } = salesOrderKey(id);
      return `/api/v3/SalesOrders/${encode(type)}/${encode(orderId)}`;
    },
    tableColumns: ['type', 'orderId', 'status', 'date', 'customerId', 'customerName', 'orderTotal', 'currency', 'lastModified'],
  },
};

/** Orders are numbered per type, so the id names both: SO/000123 (or SO-000123). */
export function salesOrderKey(id: string): { type: string; orderId: string } {
  const match = /^([A-Za-z]{2})[/-]([^/]+)$/.exec(id);
  if (!match) throw new CliError(ExitCode.Usage, `a sales order id is <type>/<orderId>, e.g. SO/000123 (got "${id}")`);
  return { type: match[1].toUpperCase(), orderId: match[2] };
}

export const RESOURCE_NAMES = Object.keys(RESOURCES);

export function resourceSpec(name: string): ResourceSpec {
  const spec = RESOURCES[name];
  if (!spec) throw new CliError(ExitCode.Usage, `unknown resource "${name}" (one of: ${RESOURCE_NAMES.join(', ')})`);
  return spec;
}

/** Attachment owners: the CLI's names and the API's endpoint names. */
export const ATTACHMENT_OWNERS: Record<string, 'customer' | 'supplierInvoice'> = {
  customer: 'customer',
  customers: 'customer',
  'supplier-invoice': 'supplierInvoice',
  'supplier-invoices': 'supplierInvoice',
  supplierInvoice: 'supplierInvoice',
};

export function attachmentOwner(name: string): 'customer' | 'supplierInvoice' {
  const owner = ATTACHMENT_OWNERS[name];
  if (!owner) throw new CliError(ExitCode.Usage, `unknown attachment owner type "${name}" (customer or supplier-invoice)`);
  return owner;
}
