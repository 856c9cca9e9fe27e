import { createServer, type Server } from 'node:http';
import { Pool } from 'pg';
import { parseCustomerListQuery, readCustomerPage, type RunSql } from '@erp/customers-queries';
import { preparedStatementName } from '@erp/database';
import { queryObject } from './query-object';

export interface CustomersBaselineOptions {
  databaseUrl: string;
  /** Same default as the service (DATABASE_POOL_SIZE). */
  poolSize?: number;
  /** Same default as the service (CUSTOMER_MAX_PAGE_SIZE). */
  maxPageSize?: number;
}

/**
 * The floor for `GET /v1/customer`: node:http and pg, nothing else (no framework, no gateway, no
 * ORM, no auth, no logging). It runs the service's own list code (`readCustomerPage` from
 * `@erp/customers-queries`: the same SQL text, prepared where the service prepares it, and the same body assembly) for the company in
 * `ipp-company-id`. Anything else answers 404; a bad query answers 400.
 */
export function createCustomersBaseline(options: CustomersBaselineOptions): { server: Server; close(): Promise<void> } {
  const pool = new Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
  // A statement the service runs prepared runs prepared here too (pg's named statements, the same
  // name), so that the floor sends its SQL the way the service does.
  const run: RunSql = async <Row>(text: string, values: unknown[]) => (await pool.query({ name: preparedStatementName(text), text, values })).rows as Row[];
  const maxPageSize = options.maxPageSize ?? 1000;

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://baseline');
    if (url.pathname === '/health/ready') {
      response.writeHead(200).end('ok');
      return;
    }
    const companyId = request.headers['ipp-company-id'];
    if (request.method !== 'GET' || url.pathname !== '/v1/customer' || typeof companyId !== 'string') {
      response.writeHead(404).end();
      return;
    }
    let query;
    try {
      query = parseCustomerListQuery(queryObject(url.searchParams), maxPageSize);
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      return;
    }
    readCustomerPage(run, companyId, query).then(
      (body) => response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  return {
    server,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}
