import { CLIENT_VERSION, ErpClient, type InventoryItemPut, type SalesOrderLineAdd, type SalesOrderLinePatch } from '@erp/client';
import type { CliApi } from './api';
import type { ApiConfig } from './config';
import type { ApiRecord } from './format/values';

/** The CLI's calls on `@erp/client`: the only file that knows the SDK's shape. */
export function createCliApi(config: ApiConfig): CliApi {
  const client = new ErpClient({
    baseUrl: config.baseUrl,
    token: config.token,
    companyId: config.companyId,
    // What the API logs for these calls (ipp-application-type) and sees as the user agent.
    applicationType: 'erp-cli',
    userAgent: `erp-cli (@erp/client/${CLIENT_VERSION})`,
    // A command makes one write at most; --idempotency-key sends it again as the same write.
    ...(config.idempotencyKey ? { idempotencyKey: () => config.idempotencyKey as string } : {}),
  });
  return {
    async get(path, query) {
      return (await client.request('GET', path, { query })).data as ApiRecord;
    },
    listV1(path, { filters, pageSize, onPage }) {
      return client.v1.list<ApiRecord>(path, { filters, pageSize, onPage: (page) => onPage?.({ received: page.received, totalCount: page.totalCount }) });
    },
    listV3(path, query, { onPage }) {
      return client.v3.list<ApiRecord>(path, query, { onPage: (page) => onPage?.({ received: page.received, totalCount: page.totalCount }) });
    },
    async upload(owner, file) {
      return (await client.attachments.upload(owner, file)) as unknown as ApiRecord;
    },
    // Lines are the API's to check (every problem in one 400): the CLI passes them as the user wrote them.
    addOrderLines({ type, orderId }, lines, ifMatch) {
      return client.salesOrders.addLines(type, orderId, lines as unknown as SalesOrderLineAdd[], ifMatch);
    },
    patchOrderLines({ type, orderId }, lines, ifMatch) {
      return client.salesOrders.patchLines(type, orderId, lines as unknown as SalesOrderLinePatch[], ifMatch);
    },
    deleteOrderLines({ type, orderId }, lineIds, ifMatch) {
      return client.salesOrders.deleteLines(type, orderId, lineIds, ifMatch);
    },
    orderView({ type, orderId }, view) {
      const views = client.salesOrders;
      switch (view) {
        case 'commissions':
          return views.commissions(type, orderId);
        case 'discounts':
          return views.discounts(type, orderId);
        case 'tax':
          return views.tax(type, orderId);
        case 'rotrut':
          return views.rotRut(type, orderId);
        case 'shipment':
          return views.shipments(type, orderId);
      }
    },
    // The item is the API's to check (every problem in one 400), as for lines.
    async putInventoryItem(inventoryId, item) {
      return (await client.inventory.put(inventoryId, item as unknown as InventoryItemPut)) as unknown as ApiRecord;
    },
    // Price rules and rates: the API checks the bodies (every problem in one 400), as for items.
    async putPriceRecord(kind, id, body) {
      const record = body as never;
      if (kind === 'class') return (await client.prices.putPriceClass(id ?? '', record)) as unknown as ApiRecord;
      if (kind === 'list') return (await client.prices.putPriceList(id ?? '', record)) as unknown as ApiRecord;
      return (await client.prices.putCurrencyRates(record)) as unknown as ApiRecord;
    },
    async getPriceRecord(kind, id) {
      if (kind === 'class') return (await client.prices.getPriceClass(id ?? '')) as unknown as ApiRecord;
      if (kind === 'list') return (await client.prices.getPriceList(id ?? '')) as unknown as ApiRecord;
      return (await client.prices.getCurrencyRates()) as unknown as ApiRecord;
    },
    async customerLocations(customerNumber) {
      return (await client.customers.locations(customerNumber)) as unknown as ApiRecord[];
    },
    async download(id) {
      // `open` (not `downloadStream`): a 404 or 401 arrives before any output file is created, and
      // the size (Content-Length) gives the progress bar its total.
      const { stream, size } = await client.attachments.open(id);
      return { stream, size };
    },
  };
}
