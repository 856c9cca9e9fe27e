import type { ProblemBody } from '@erp/errors';
import { insertCustomerSnapshots, type SalesOrdersTestApp, useSalesOrdersTestApp } from './sales-orders-test-app';

export const A = '1000001';
export const B = '1000002';

export interface Line {
  lineId: number;
  quantity: number;
  unitPrice: number;
  discountPercent: number;
  extendedPrice: number;
  hasManualPrice: boolean;
  hasManualDiscount: boolean;
}
export interface Order {
  orderId: string;
  lines: Line[];
  totals: { orderTotal: number; discountTotal: number };
}
/** A validation failure's body: its `errors` and `details` are always there. */
export type Problem = Required<ProblemBody>;

/** The response's JSON body (undefined when empty), once its status is `status`. */
export async function ok<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The problem+json body of a 400. */
export async function problem(response: Response): Promise<Problem> {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return (await response.json()) as Problem;
}

export const prices = (order: Order) => order.lines.map((l) => [l.unitPrice, l.discountPercent, l.extendedPrice]);

function header(response: Response, name: string): string {
  const value = response.headers.get(name);
  if (value === null) throw new Error(`the answer ${response.status} has no ${name}`);
  return value;
}

/** What the price rule specs share: the app and company A's (or another's) requests. */
export interface PriceRulesTestKit {
  app(): SalesOrdersTestApp;
  send(method: string, path: string, body?: unknown, options?: { company?: string; ifMatch?: string }): Promise<Response>;
  /** POSTs an SO of the customer with these lines. */
  create(customerId: string, lines: object[], extra?: object, company?: string): Promise<Response>;
  /** POSTs an SO of company A, failing unless 201. */
  createOrder(customerId: string, lines: object[], extra?: object): Promise<{ order: Order; etag: string; path: string }>;
  /** GETs the order with its lines. */
  read(path: string): Promise<{ order: Order; etag: string }>;
}

/**
 * Starts a sales-orders-v3 for the calling describe (its own database) with the rules the specs
 * price by: items with base prices (BOLT-M8-40 also in B, at 99), price class TRADE and price
 * list NOK-2026 with quantity breaks, a class and a customer entry, and dated entries. Closes it at
 * the end, failing if any request answered 5xx.
 */
export function usePriceRulesTestApp(name: string): PriceRulesTestKit {
  const app = useSalesOrdersTestApp(name, async (t) => {
    await insertCustomerSnapshots(t, A, [{ id: 'RETAIL' }, { id: 'TRADE1' }, { id: 'TRADE2' }, { id: 'VIP' }, { id: 'EURO', currencyId: 'EUR' }]);
    await insertCustomerSnapshots(t, B, [{ id: 'RETAIL' }]);
    const item = (prices: object[]) => ({ description: 'Bolt', prices });
    await ok(await send('PUT', '/api/v3/Inventory/BOLT-M8-40', item([{ currencyId: 'NOK', unitPrice: '2.50' }, { currencyId: 'EUR', unitPrice: 0.22 }])), 201);
    await ok(await send('PUT', '/api/v3/Inventory/NUT-M8', item([{ currencyId: 'NOK', unitPrice: 0.8 }])), 201);
    await ok(await send('PUT', '/api/v3/Inventory/UNPRICED', {}), 201);
    await ok(await send('PUT', '/api/v3/Inventory/BOLT-M8-40', item([{ currencyId: 'NOK', unitPrice: 99 }]), { company: B }), 201);
    await ok(await send('PUT', '/api/v3/PriceClasses/TRADE', { description: 'Trade customers', customers: ['TRADE1', 'TRADE2'] }), 201);
    await ok(
      await send('PUT', '/api/v3/PriceLists/NOK-2026', {
        description: 'Prices 2026',
        currencyId: 'NOK',
        entries: [
          { inventoryId: 'BOLT-M8-40', minQuantity: 100, unitPrice: '2.10' },
          { inventoryId: 'BOLT-M8-40', minQuantity: 1000, unitPrice: '1.95', discountPercent: 2 },
          { inventoryId: 'BOLT-M8-40', priceClassId: 'TRADE', unitPrice: '2.00', discountPercent: 5, effectiveFrom: '2026-01-01', effectiveTo: '2026-06-30' },
          { inventoryId: 'BOLT-M8-40', priceClassId: 'TRADE', unitPrice: '2.05', effectiveFrom: '2026-07-01' },
          { inventoryId: 'BOLT-M8-40', customerId: 'VIP', unitPrice: '1.50', discountPercent: 10 },
        ],
      }),
      201,
    );
  });
  const send: PriceRulesTestKit['send'] = async (method, path, body, options = {}) => {
    const headers = await app().headers(options.company ?? A, options.ifMatch ? { 'if-match': options.ifMatch } : {});
    return app().http.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
  const create: PriceRulesTestKit['create'] = (customerId, lines, extra = {}, company = A) =>
    send('POST', '/api/v3/SalesOrders', { type: 'SO', customer: { id: customerId }, orderLines: lines, ...extra }, { company });
  return {
    app,
    send,
    create,
    async createOrder(customerId, lines, extra = {}) {
      const response = await create(customerId, lines, extra);
      const order = await ok<Order>(response, 201);
      return { order, etag: header(response, 'etag'), path: header(response, 'location') };
    },
    async read(path) {
      const response = await send('GET', `${path}?expand=lines`);
      return { order: await ok<Order>(response, 200), etag: header(response, 'etag') };
    },
  };
}
