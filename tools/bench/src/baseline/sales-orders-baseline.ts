import { createServer, type Server } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { Pool } from 'pg';
import { openOrderPage, parseSalesOrderListQuery } from '@erp/sales-orders-queries';
import { queryObject } from './query-object';

export interface SalesOrdersBaselineOptions {
  databaseUrl: string;
  /** Same default as the service (DATABASE_POOL_SIZE). */
  poolSize?: number;
}

const LIST_PATH = '/api/v3/SalesOrders';

/**
 * The floor for `GET /api/v3/SalesOrders`: node:http and pg, nothing else (no framework, no
 * gateway, no ORM, no auth, no logging). It runs the service's own list code (`openOrderPage`
 * from `@erp/sales-orders-queries`: the same SQL, the same cursor batches, the same streamed
 * envelope and `nextPage` link) for the company in `ipp-company-id`, piped to the socket with
 * backpressure as the service does. Anything else answers 404; a bad query answers 400.
 */
export function createSalesOrdersBaseline(options: SalesOrdersBaselineOptions): { server: Server; close(): Promise<void> } {
  const pool = new Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });

  const server = createServer((request, response) => {
    const rawUrl = request.url ?? '/';
    const url = new URL(rawUrl, 'http://baseline');
    if (url.pathname === '/health/ready') {
      response.writeHead(200).end('ok');
      return;
    }
    const companyId = request.headers['ipp-company-id'];
    if (request.method !== 'GET' || url.pathname !== LIST_PATH || typeof companyId !== 'string') {
      response.writeHead(404).end();
      return;
    }
    let query;
    try {
      query = parseSalesOrderListQuery(queryObject(url.searchParams), undefined);
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      return;
    }
    const q = rawUrl.indexOf('?');
    const listRequest = { path: LIST_PATH, rawQuery: q < 0 ? '' : rawUrl.slice(q + 1) };
    void (async () => {
      let released = true;
      let release = (error?: Error): void => void error;
      try {
        const client = await pool.connect();
        released = false;
        release = (error?: Error) => {
          if (released) return;
          released = true;
          client.release(error);
        };
        const body = await openOrderPage(client, companyId, query, listRequest, release);
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        await pipeline(body, response);
      } catch (error) {
        release(error instanceof Error ? error : new Error(String(error)));
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
        else response.destroy();
      }
    })();
  });
  return {
    server,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
