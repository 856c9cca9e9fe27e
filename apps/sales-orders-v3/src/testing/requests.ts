import type { SalesOrdersTestApp } from './sales-orders-test-app';

/** A request of `company` to the test app: JSON body, and `If-Match` when given. */
export function requester(app: () => SalesOrdersTestApp, company: string) {
  return async (method: string, path: string, body?: unknown, ifMatch?: string): Promise<Response> => {
    const headers = await app().headers(company, ifMatch ? { 'if-match': ifMatch } : {});
    return app().http.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  };
}

/** The response's JSON body, once its status is `status` (otherwise an error showing what came instead). */
export async function jsonOf<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}
