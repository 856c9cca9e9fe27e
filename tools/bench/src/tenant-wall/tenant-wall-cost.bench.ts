import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { parseCustomerListQuery, readCustomerPage } from '@erp/customers-queries';
import { createDataSource, dropDatabase, ensureDatabase, runAsCompany, runAsService } from '@erp/database';
import { orderCountQuery, orderPageQuery, parseSalesOrderListQuery } from '@erp/sales-orders-queries';
import type { DataSource } from 'typeorm';
import { loadCustomers } from '../data/customers.generator';
import { loadSalesOrders } from '../data/sales-orders.generator';
import { BENCH_ORDER_TYPES } from '../scenarios/filtered-paging/sales-order-filters';

const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
const PAGE_SIZE = 100;

export interface TenantWallCostOptions {
  serverUrl: string;
  customers: number;
  orders: number;
  samples: number;
  log: (line: string) => void;
}

export interface WallCase {
  name: string;
  /** Median ms as the service (the tables, no wall) and in the company's scope (the tenant views). */
  tablesMs: number;
  viewsMs: number;
  ratio: number;
}

/** One page read (the SQL the service runs for it), or one write, through the DataSource in the current scope. */
type PageRead = (db: DataSource) => Promise<unknown>;

/**
 * A committed write of one row that fires the table's count triggers (a rename's shape: the row
 * keeps its values but its modification time), a different row each time.
 */
function rowWrite(table: string, company: string, rows: number): PageRead {
  let next = 0;
  return (db) => {
    const id = 1 + (next++ * 7919) % rows;
    return db.transaction((tx) =>
      tx.query(`UPDATE ${table} SET last_modified_at = date_trunc('milliseconds', now()) WHERE company_id = $1 AND internal_id = $2`, [company, id]),
    );
  };
}

/**
 * The tenant wall's cost on the two searching lists (issue 29), with nothing else varying: the
 * same process, database, data and SQL, read as the service (owner: the tables) and in the
 * company's scope (`<db>_app`: the tenant views), sample by sample alternately, medians compared.
 * The filtered-paging scenario measures the same searches end to end, but a run before and a run
 * after differ by whatever else the machine does; this ratio does not.
 */
export async function runTenantWallCostBench(options: TenantWallCostOptions): Promise<WallCase[]> {
  const cases: WallCase[] = [];
  for (const part of [customerPart, orderPart]) {
    const name = `bench_wall_${part.service.replace(/-/g, '_')}_${process.pid}`;
    const url = await ensureDatabase(options.serverUrl, name);
    try {
      await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', join(REPO_ROOT, `apps/${part.service}/src/migrate.ts`)], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
      });
      const sql = new Client({ connectionString: url });
      await sql.connect();
      try {
        await part.load(sql, options);
      } finally {
        await sql.end();
      }
      const db = createDataSource({ url, entities: [], migrations: [], applicationName: 'bench-wall', tenantIsolation: true });
      await db.initialize();
      try {
        for (const [caseName, read] of await part.cases(db)) cases.push(await measure(`${part.label}: ${caseName}`, db, part.company, read, options));
      } finally {
        await db.destroy();
      }
    } finally {
      await dropDatabase(options.serverUrl, name);
    }
  }
  return cases;
}

async function measure(name: string, db: DataSource, company: string, read: PageRead, options: TenantWallCostOptions): Promise<WallCase> {
  const tables: number[] = [];
  const views: number[] = [];
  const time = async (into: number[], work: () => Promise<unknown>) => {
    const started = process.hrtime.bigint();
    await work();
    into.push(Number(process.hrtime.bigint() - started) / 1e6);
  };
  // Two of each first, unmeasured (plans and caches), then alternately.
  for (let i = -2; i < options.samples; i++) {
    const order = i % 2 === 0 ? ['tables', 'views'] : ['views', 'tables'];
    for (const which of order) {
      const work = which === 'tables' ? () => runAsService(() => read(db)) : () => runAsCompany(company, () => read(db));
      if (i < 0) await work();
      else await time(which === 'tables' ? tables : views, work);
    }
  }
  const tablesMs = median(tables);
  const viewsMs = median(views);
  const result = { name, tablesMs, viewsMs, ratio: Math.round((viewsMs / tablesMs) * 100) / 100 };
  options.log(`${name}: tables ${tablesMs} ms, views ${viewsMs} ms, ${result.ratio}x`);
  return result;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)] * 10) / 10;
}

const CUSTOMERS_COMPANY = 'bench-wall-customers';
const ORDERS_COMPANY = 'bench-wall-orders';

const customerPart = {
  service: 'customers-v1',
  label: 'customers',
  company: CUSTOMERS_COMPANY,
  load: (sql: Client, options: TenantWallCostOptions) =>
    loadCustomers(sql, {
      companies: [{ companyId: CUSTOMERS_COMPANY, count: options.customers }, { companyId: 'bench-wall-noise', count: Math.round(options.customers / 20) }],
      log: options.log,
    }),
  async cases(db: DataSource): Promise<Array<[string, PageRead]>> {
    const run = <Row>(text: string, values: unknown[]) => db.query<Row[]>(text, values);
    const page = (filter: Record<string, string>, pageNumber: number): PageRead => () =>
      readCustomerPage(run, CUSTOMERS_COMPANY, parseCustomerListQuery({ ...filter, pageSize: String(PAGE_SIZE), pageNumber: String(pageNumber) }, 1000));
    const cases: Array<[string, PageRead]> = [];
    const filters: Array<Record<string, string>> = [{ name: 'bygg' }, { name: 'bygg', status: 'Active' }];
    for (const filter of filters) {
      const first = JSON.parse(String(await runAsService(() => page(filter, 1)(db)))) as Array<{ metadata: { totalCount: number } }>;
      const last = Math.max(1, Math.ceil((first[0]?.metadata.totalCount ?? 0) / PAGE_SIZE));
      const label = new URLSearchParams(filter).toString();
      cases.push([`${label} page 1`, page(filter, 1)], [`${label} page ${last}`, page(filter, last)]);
    }
    const [{ rows }] = await runAsService(() => db.query<Array<{ rows: number }>>(`SELECT count(*)::int AS rows FROM customers WHERE company_id = $1`, [CUSTOMERS_COMPANY]));
    cases.push(['write one customer (its triggers keep 3 count tables)', rowWrite('customers', CUSTOMERS_COMPANY, rows)]);
    return cases;
  },
};

const orderPart = {
  service: 'sales-orders-v3',
  label: 'orders',
  company: ORDERS_COMPANY,
  load: (sql: Client, options: TenantWallCostOptions) =>
    loadSalesOrders(sql, {
      companies: [
        { companyId: ORDERS_COMPANY, orders: options.orders, linesPerOrder: 3, spread: { customers: 5000, years: 5, updatedShare: 0.3, types: BENCH_ORDER_TYPES } },
        { companyId: 'bench-wall-orders-noise', orders: Math.round(options.orders / 20), linesPerOrder: 1 },
      ],
      log: options.log,
    }),
  async cases(db: DataSource): Promise<Array<[string, PageRead]>> {
    const cases: Array<[string, PageRead]> = [];
    for (const filter of ['bygg', '1234']) {
      const query = (pageIndex: number) =>
        parseSalesOrderListQuery({ filter, orderBy: 'created', pageSize: String(PAGE_SIZE), pageIndex: String(pageIndex) }, undefined);
      const count = orderCountQuery(ORDERS_COMPANY, query(0));
      const [{ total }] = await runAsService(() => db.query<Array<{ total: number }>>(count.text, count.values));
      const last = Math.max(0, Math.ceil(total / PAGE_SIZE) - 1);
      const page = (pageIndex: number): PageRead => (through) => {
        const statement = orderPageQuery(ORDERS_COMPANY, query(pageIndex), total);
        return through.query(statement.text, statement.values);
      };
      cases.push([`filter=${filter} page 1`, page(0)], [`filter=${filter} page ${last + 1}`, page(last)]);
    }
    const [{ rows }] = await runAsService(() => db.query<Array<{ rows: number }>>(`SELECT count(*)::int AS rows FROM sales_orders WHERE company_id = $1`, [ORDERS_COMPANY]));
    cases.push(['write one order (its triggers keep the cells and the search text)', rowWrite('sales_orders', ORDERS_COMPANY, rows)]);
    return cases;
  },
};

export function tenantWallCostTable(cases: WallCase[]): string {
  return [
    '| case | tables (service) p50 ms | tenant views (company) p50 ms | views/tables |',
    '| --- | --- | --- | --- |',
    ...cases.map((c) => `| ${c.name} | ${c.tablesMs} | ${c.viewsMs} | ${c.ratio}x |`),
  ].join('\n');
}
