import { publishedResponseValidator } from '@erp/testing';
import published from '../../reference/published-v3-view-responses.json';
import { insertCustomerSnapshots, putInventoryItems, type SalesOrdersTestApp, useSalesOrdersTestApp } from './sales-orders-test-app';

export const A = '1000001';
export const B = '1000002';

/**
 * Every view answer is validated against the published document's own response schema (the
 * repository's copy in reference/, `additionalProperties: false` and OpenAPI 3.0 `nullable` as
 * published), so a property the document does not declare, or a wrong type, fails here.
 */
export const conforms = publishedResponseValidator(published);
export function expectPublishedShape(view: string, body: unknown): void {
  expect(conforms(`/api/v3/SalesOrders/{type}/{orderId}/${view}`, body)).toEqual([]);
}

export const LINES = [
  { inventoryId: 'ITEM1', quantity: 4, unitPrice: 101.25, taxCategoryId: 'GOODS' }, // 405.00
  { inventoryId: 'ITEM2', quantity: '2.5', unitPrice: '10.10', discountPercent: 10, taxCategoryId: 'FOOD', commissionable: false }, // 22.73
  { inventoryId: 'LABOUR', quantity: 3, unitPrice: '333.37', taxCategoryId: 'GOODS' }, // 1000.11
];

/** An order of company A with every view part set: the figures in the tests below follow from it. */
export const FULL_ORDER = {
  type: 'SO',
  customer: { id: '10001' },
  salesPersonId: 'SP01',
  commissionPercent: '2.5',
  orderLines: LINES,
  discounts: [
    { discountId: 'VOL5', discountSequenceId: '0001', discountPercent: 5 },
    { discountId: 'FIX', discountAmount: '10.00' },
    { discountId: 'SKIP', discountPercent: 50, skipDiscount: true },
  ],
  taxes: [
    { taxId: 'VAT25', taxCategoryId: 'GOODS', taxRate: 25 },
    { taxId: 'VAT12', taxCategoryId: 'FOOD', taxRate: '12', taxType: 'VAT' },
  ],
  rotRut: {
    type: 'ROT',
    distributedAutomatically: true,
    estate: 'Villan 1:23',
    distribution: [
      { lineId: 3, personalId: '19800101-1234' },
      { lineId: 3, personalId: '19820202-5678', extra: true },
      { lineId: 3, personalId: '198403039012' },
    ],
  },
  shipments: [
    { id: 'SH2', date: '2026-02-02', quantity: 1, weight: '2.5' },
    { id: 'SH1', date: '2026-01-15T10:00:00+01:00', quantity: '2.5', type: 'Issue', volume: '0.125', invoiceType: 'IN', invoiceId: '000042' },
  ],
};

export interface ViewProblem {
  status: number;
  type?: string;
  title?: string;
  errors?: Record<string, string[]>;
}

/** What the view specs share: the app, company A's requests (or another's), and the views' answers. */
export interface ViewsTestKit {
  app(): SalesOrdersTestApp;
  send(method: string, path: string, options?: { body?: unknown; ifMatch?: string; company?: string }): Promise<Response>;
  /** The view `name` of the order at `path`, once it answers 200 in the published shape. */
  view(path: string, name: string, company?: string): Promise<unknown>;
  /** POSTs the order (FULL_ORDER by default), failing unless 201. */
  create(body?: object): Promise<{ path: string; etag: string }>;
  problemOf(response: Response): Promise<ViewProblem>;
}

/**
 * Starts a sales-orders-v3 for the calling describe (its own database) with customer 10001 of A
 * and the items the orders name, and closes it at the end, failing if any request answered 5xx.
 */
export function useSalesOrderViewsTestApp(name: string): ViewsTestKit {
  const app = useSalesOrdersTestApp(name, async (t) => {
    await insertCustomerSnapshots(t, A, [{ id: '10001', name: 'Acme AB', currencyId: 'SEK' }]);
    // Order lines name items of the company's catalogue.
    await putInventoryItems(t, A, ['ITEM1', 'ITEM2', 'LABOUR', 'LABOUR2']);
  });
  const kit: ViewsTestKit = {
    app,
    async send(method, path, options = {}) {
      const headers = await app().headers(options.company ?? A, options.ifMatch ? { 'if-match': options.ifMatch } : {});
      if (options.body === undefined) delete headers['content-type'];
      return app().http.request(path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    },
    async view(path, name, company = A) {
      const response = await kit.send('GET', `${path}/${name}`, { company });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as unknown;
      expectPublishedShape(name, body);
      return body;
    },
    async create(body = FULL_ORDER) {
      const response = await kit.send('POST', '/api/v3/SalesOrders', { body });
      expect(response.status).toBe(201);
      const [path, etag] = [response.headers.get('location'), response.headers.get('etag')];
      if (!path || !etag) throw new Error('POST answered 201 without Location or ETag');
      return { path, etag };
    },
    async problemOf(response) {
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      return (await response.json()) as ViewProblem;
    },
  };
  return kit;
}
