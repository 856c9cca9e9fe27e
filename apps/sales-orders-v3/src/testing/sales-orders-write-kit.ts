import type { ProblemBody } from '@erp/errors';
import { insertCustomerSnapshots, putInventoryItems, type SalesOrdersTestApp, useSalesOrdersTestApp } from './sales-orders-test-app';

export const A = '1000001';

export interface Line {
  lineId: number;
  sortOrder: number;
  inventory: { id: string; description: string | null };
  description: string | null;
  quantity: number;
  unitPrice: number;
  discountPercent: number;
  extendedPrice: number;
  unitOfMeasure: string | null;
  warehouseId: string | null;
  requestDate: string | null;
  note: string | null;
}

export interface Order {
  type: string;
  orderId: string;
  date: string;
  requestOn: string | null;
  cancelBy: string | null;
  description: string | null;
  note?: string | null;
  currencyId: string | null;
  status: { description: string; hold: boolean; cancelled: boolean };
  customer?: { id: string; name: string; order: string | null; refNo: string | null };
  billing?: { address?: Record<string, unknown>; contact?: Record<string, unknown> };
  shipping?: { address?: Record<string, unknown>; contact?: Record<string, unknown> };
  paymentSettings?: { paymentMethod?: { id: string; description: string | null } };
  financialInformation?: { terms?: { id: string; description: string | null } };
  totals: { discountTotal: number; orderTotal: number };
  orderQty: number;
  lines?: Line[];
  attachments?: unknown[];
  lastModified: string;
  version: string;
}

export type Problem = ProblemBody;

/** The first order every write spec makes: SO 000001 of company A, two lines (the second priced 22.73). */
export const NEW_ORDER = {
  type: 'SO',
  customer: { id: '10001', order: 'PO-4711', refNo: 'REF-1' },
  description: 'Spring delivery',
  note: 'Leave at the back door',
  orderLines: [
    { inventoryId: 'STOCKITEM1', quantity: 4, unitPrice: 101.25 },
    { inventoryId: 'STOCKITEM2', quantity: '2.5', unitPrice: '10.10', discountPercent: 10, description: 'Blue', unitOfMeasure: 'KG' },
  ],
};

/** The items order lines of the write specs name (order lines may only name items that exist). */
export const WRITE_ITEMS = ['STOCKITEM1', 'STOCKITEM2', 'X', 'A', 'B', 'C', 'D'];
/** The items of the order with thousands of lines. */
export const THOUSANDS_OF_ITEMS = Array.from({ length: 3000 }, (_, i) => `ITEM-${i + 1}`);

/** What the create, read, patch and bad-input specs share: the app, company A's requests and their answers. */
export interface WriteTestKit {
  app(): SalesOrdersTestApp;
  send(method: string, path: string, body?: unknown, extra?: Record<string, string>): Promise<Response>;
  /** POST, failing unless the answer is 201. */
  create(body: Record<string, unknown>): Promise<{ response: Response; order: Order }>;
  get(path: string): Promise<{ response: Response; order: Order; text: string }>;
}

function withoutContentType(h: Record<string, string>): Record<string, string> {
  const { 'content-type': _omitted, ...rest } = h;
  return rest;
}

/**
 * Starts a sales-orders-v3 for the calling describe (its own database), with customers 10001 (NOK),
 * 10002 (SEK) and 10003 (inactive) and the catalogue items `items`; runs `seed` once started (the
 * orders a spec reads must exist before its first test); closes the app at the end, failing if any
 * request answered 5xx.
 */
export function useSalesOrdersWriteTestApp(
  name: string,
  options: { items?: string[]; seed?: (kit: WriteTestKit) => Promise<void> } = {},
): WriteTestKit {
  let headers: Record<string, string> = {};
  const app = useSalesOrdersTestApp(name, async (t) => {
    headers = await t.headers(A);
    await insertCustomerSnapshots(t, A, [
      { id: '10001', name: 'Acme AS', currencyId: 'NOK' },
      { id: '10002', name: 'Fjord Shipping AB', currencyId: 'SEK' },
      { id: '10003', name: 'Closed Down Ltd', status: 'Inactive' },
    ]);
    await putInventoryItems(t, A, options.items ?? WRITE_ITEMS);
    await options.seed?.(kit);
  });
  const kit: WriteTestKit = {
    app,
    send(method, path, body, extra = {}) {
      return app().http.request(path, {
        method,
        headers: { ...(body === undefined ? withoutContentType(headers) : headers), ...extra },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
    async create(body) {
      const response = await kit.send('POST', '/api/v3/SalesOrders', body);
      const order = (await response.json()) as Order;
      if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${JSON.stringify(order)}`);
      return { response, order };
    },
    async get(path) {
      const response = await kit.send('GET', path);
      const text = await response.text();
      return { response, order: JSON.parse(text) as Order, text };
    },
  };
  return kit;
}
