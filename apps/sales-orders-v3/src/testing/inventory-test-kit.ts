import { publishedSchemaValidator } from '@erp/testing';
import type { ProblemBody } from '@erp/errors';
import published from '../../reference/published-v3-inventory.json';
import { insertCustomerSnapshots, type SalesOrdersTestApp, useSalesOrdersTestApp } from './sales-orders-test-app';

export const A = '1000001';
export const B = '1000002';
/** The company whose catalogue the list tests read (seeded before them). */
export const LIST = '1000003';
export const conforms = publishedSchemaValidator(published);

export interface Item {
  internalId: number;
  inventoryId: string;
  description: string | null;
  baseUnit: string | null;
  availability: Array<{ warehouseId: string; internalWarehouseId: number; lastModified: string; quantityOnHand: number; estimatedUnitCost: number | null; locations?: Array<{ locationId: string; lastModified: string }> }>;
  attributes?: Record<string, string>;
}
export interface Page {
  value: Item[];
  totalCount: number;
  nextPage: string | null;
}
/** A validation failure's body: its `errors` and `details` are always there. */
export type Problem = Required<ProblemBody>;

export const ids = (page: Page) => page.value.map((i) => i.inventoryId);

export const BOLT = {
  description: 'Bolt M8',
  baseUnit: 'PCS',
  attributes: { WEBSHOP: '1', COLOUR: 'red' },
  availability: [
    { warehouseId: 'MAIN', description: 'Main warehouse', quantityOnHand: 40, quantityAvailable: 35, estimatedTotalCost: 100, locations: [{ locationId: 'A1', quantityOnHand: 30 }, { locationId: 'B2', quantityOnHand: 10 }] },
    { warehouseId: 'EAST', quantityOnHand: 0 },
  ],
};

/** What the inventory specs share: the app and the calls they make. */
export interface InventoryTestKit {
  app(): SalesOrdersTestApp;
  send(method: string, path: string, body?: unknown, company?: string, extra?: Record<string, string>): Promise<Response>;
  put(id: string, body: unknown, company?: string): Promise<Response>;
  /** A page of `company`'s items (LIST's by default), once it answers 200 in the published shape. */
  list(query: string, company?: string): Promise<Page>;
  /** The problem+json body, once the answer has `status` (400 by default) and the published shape. */
  problemOf(response: Response, status?: number): Promise<Problem>;
}

/**
 * Starts a sales-orders-v3 for the calling describe (its own database), with customer 10001 in A
 * and B, runs `seed` before the first test, and closes the app at the end, failing if any request
 * answered 5xx.
 */
export function useInventoryTestApp(name: string, seed?: (kit: InventoryTestKit) => Promise<void>): InventoryTestKit {
  const app = useSalesOrdersTestApp(name, async (t) => {
    await insertCustomerSnapshots(t, A, [{ id: '10001' }]);
    await insertCustomerSnapshots(t, B, [{ id: '10001' }]);
    await seed?.(kit);
  });
  const kit: InventoryTestKit = {
    app,
    async send(method, path, body, company = A, extra = {}) {
      const headers = await app().headers(company, extra);
      if (body === undefined) delete headers['content-type'];
      return app().http.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    },
    put(id, body, company = A) {
      return kit.send('PUT', `/api/v3/Inventory/${encodeURIComponent(id)}`, body, company);
    },
    async list(query, company = LIST) {
      const response = await kit.send('GET', `/api/v3/Inventory${query}`, undefined, company);
      const text = await response.text();
      expect({ status: response.status, text }).toMatchObject({ status: 200 });
      const page = JSON.parse(text) as Page;
      expect(conforms('InventoryItemAvailabilityDtoPagedResult', page)).toEqual([]);
      return page;
    },
    async problemOf(response, status = 400) {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const problem = (await response.json()) as Problem;
      expect(conforms('ProblemDetails', problem)).toEqual([]);
      return problem;
    },
  };
  return kit;
}
