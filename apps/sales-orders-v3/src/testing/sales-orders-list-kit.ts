import type { Client } from 'pg';
import { type SalesOrdersTestApp, useSalesOrdersTestApp } from './sales-orders-test-app';

export interface Summary {
  type: string;
  orderId: string;
  status: string;
  date: string;
  lastModified: string;
  customerId: string;
  customerName: string;
  customerOrder: string | null;
  customerRefNo: string | null;
  currency: string | null;
  orderTotal: number;
  orderQty: number;
  requestOn: string | null;
  description: string | null;
  lines?: unknown[];
}

export interface Page {
  value: Summary[];
  totalCount: number;
  nextPage: string | null;
}

/** What the list specs share: the app and a company's list reads. */
export interface ListTestKit {
  app(): SalesOrdersTestApp;
  list(company: string, pathAndQuery: string): Promise<{ status: number; page: Page; text: string }>;
  /** The `type/orderId` of each order of a page, once the answer is 200. */
  ids(company: string, pathAndQuery: string): Promise<string[]>;
}

/** The ids `type/000from` to `type/000to`, in order. */
export const range = (from: number, to: number, type = 'SO') =>
  Array.from({ length: to - from + 1 }, (_, k) => `${type}/${String(from + k).padStart(6, '0')}`);

/**
 * Starts a sales-orders-v3 for the calling describe (its own database), lets `seed` insert the orders
 * its tests list before the first test, and closes the app at the end, failing if any request
 * answered 5xx.
 */
export function useSalesOrdersListTestApp(name: string, seed: (sql: Client) => Promise<void>): ListTestKit {
  const app = useSalesOrdersTestApp(name, async (t) => {
    await seed(t.sql);
  });
  const list: ListTestKit['list'] = async (company, pathAndQuery) => {
    const response = await app().http.request(pathAndQuery, { headers: await app().headers(company) });
    const text = await response.text();
    return { status: response.status, page: JSON.parse(text) as Page, text };
  };
  return {
    app,
    list,
    async ids(company, pathAndQuery) {
      const { status, page } = await list(company, pathAndQuery);
      expect(status).toBe(200);
      return page.value.map((o) => `${o.type}/${o.orderId}`);
    },
  };
}
