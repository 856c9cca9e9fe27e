import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { loadCustomers } from '../data/customers.generator';
import { loadSalesOrders } from '../data/sales-orders.generator';
import { round } from '../framework/load';
import { sampleMemory } from '../framework/process-memory';
import { check, type BenchContext, type BenchScenario, type ScenarioCase, type ScenarioReport, type TargetCheck } from '../framework/scenario';
import { sizeLabel } from './customers-list.scenario';
import { customerFilterCases, SYNC_FROM } from './filtered-paging/customer-filters';
import { sequentialMeasurement, timePage, v3OrderPageCounts, type PageCounter, type TimedPage } from './filtered-paging/page-timing';
import { BENCH_ORDER_TYPES, salesOrderFilterCases } from './filtered-paging/sales-order-filters';
import { copyFloor, walkEveryPage } from './filtered-paging/sync-walk';

const PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

/** The parts of the scenario `--filtered.parts=` can pick (default all). */
const PARTS = ['customers', 'invoices', 'orders'] as const;
const ORDERS_SERVICE = 'sales-orders-v3';

/** One timed filter: its page 1 and last page, `samples` each, alternating. */
interface TimedFilter {
  name: string;
  facts: ScenarioCase['facts'];
  pageUrl: (pageSize: number, page: 'first' | 'last', totalCount: number) => string;
}

/**
 * Page 1 and the last page of one filter, p50 of `samples` each (alternating, one request at a
 * time), as a case whose `first/unfiltered first` ratio divides by `unfilteredFirst` (NaN for the
 * unfiltered case itself).
 */
async function timeFilter(
  context: BenchContext,
  filter: TimedFilter,
  headers: Record<string, string>,
  samples: number,
  unfilteredFirst: number,
  counts?: PageCounter,
): Promise<ScenarioCase> {
  const memory = sampleMemory(context.pids);
  const probe = await timePage(filter.pageUrl(PAGE_SIZE, 'first', 0), headers, counts);
  const lastUrl = filter.pageUrl(PAGE_SIZE, 'last', probe.totalCount);
  const first: TimedPage[] = [];
  const last: TimedPage[] = [];
  for (let i = 0; i < samples; i++) {
    first.push(await timePage(filter.pageUrl(PAGE_SIZE, 'first', probe.totalCount), headers, counts));
    last.push(await timePage(lastUrl, headers, counts));
  }
  const measurements = [sequentialMeasurement('page 1', first), sequentialMeasurement('last page', last)];
  const ratios = {
    'last/first': round(measurements[1].p50Ms / measurements[0].p50Ms),
    'first/unfiltered first': round(measurements[0].p50Ms / unfilteredFirst),
  };
  const lastPage = Math.max(1, Math.ceil(probe.totalCount / PAGE_SIZE));
  context.log(
    `filtered-paging ${filter.name}: ${probe.totalCount} rows; page 1 p50 ${measurements[0].p50Ms} ms, page ${lastPage} p50 ${measurements[1].p50Ms} ms`,
  );
  return { name: filter.name, facts: { ...filter.facts, totalCount: probe.totalCount, lastPage }, measurements, ratios, memory: memory.stop() };
}

/**
 * Scenario 7: every documented `GET /v1/customer` filter, alone and in pairs, on one company of
 * 1M customers (`--filtered.customers=`), through the gateway, one request at a time: page 1 and
 * the last page (p50 of `--filtered.samples=` each, alternating), their ratio, and page 1 against
 * the unfiltered page 1. Then the full incremental sync (every page of `lastModifiedDateTime >=`
 * matching every row, at the largest page size) against one raw `COPY` of the same rows.
 * Then (`orders: ` cases) every filter of `GET /api/v3/SalesOrders[/{type}]` with every orderBy on
 * one company of 200k orders (`--filtered.orders=`), each page 1 against the unfiltered page 1 of
 * the same orderBy. `--filtered.parts=customers,orders` runs only those parts (default all).
 */
export const filteredPagingScenario: BenchScenario = {
  name: 'filtered-paging',
  title: 'GET /v1/customer?<filter>&pageSize=100&pageNumber=1 and =last',
  services: ['customers-v1', ORDERS_SERVICE],
  async run(context) {
    const parts = new Set((context.options['filtered.parts'] ?? PARTS.join(',')).split(',').map((p) => p.trim()));
    const unknown = [...parts].filter((p) => !PARTS.includes(p as (typeof PARTS)[number]));
    if (unknown.length > 0) throw new Error(`--filtered.parts: unknown part(s) ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
    const samples = Number(context.options['filtered.samples'] ?? 5);
    const reports: ScenarioReport[] = [];
    if (parts.has('customers')) reports.push(await customerPart(context, samples));
    if (parts.has('orders')) reports.push(await orderPart(context, samples));
    return {
      scenario: this.name,
      title: this.title,
      cases: reports.flatMap((r) => r.cases),
      targets: reports.flatMap((r) => r.targets),
      notes: reports.flatMap((r) => r.notes ?? []),
    };
  },
};

async function customerPart(context: BenchContext, samples: number): Promise<ScenarioReport> {
  const size = Number(context.options['filtered.customers'] ?? 1_000_000);
  const syncBudget = Number(context.options['filtered.syncBudgetSeconds'] ?? 240);
  const companyId = `bench-filtered-${sizeLabel(size)}`;
  const sql = new Client({ connectionString: context.databaseUrls['customers-v1'] });
  await sql.connect();
  let filters;
  try {
    await loadCustomers(sql, {
      companies: [{ companyId, count: size }, { companyId: 'bench-filtered-noise', count: Math.max(1000, Math.round(size / 20)) }],
      seed: context.seed,
      log: (line) => context.log(`  ${line}`),
    });
    filters = await customerFilterCases(sql, companyId);
  } finally {
    await sql.end();
  }
  const token = await signDevToken(context.keys.privateKeyPem, { companies: [companyId], scope: 'erp:read', expiresInSeconds: 24 * 3600 });
  const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': companyId, 'ipp-application-type': 'erp-bench', accept: 'application/json' };
  const url = (query: Record<string, string>, pageSize: number, pageNumber: number) =>
    `${context.gatewayUrl}/v1/customer?${new URLSearchParams({ ...query, pageSize: String(pageSize), pageNumber: String(pageNumber) })}`;

  const cases: ScenarioCase[] = [];
  let unfilteredFirst = NaN;
  for (const filter of filters) {
    const timed = await timeFilter(
      context,
      {
        name: filter.name,
        facts: { query: new URLSearchParams(filter.query).toString() },
        pageUrl: (pageSize, page, total) => url(filter.query, pageSize, page === 'first' ? 1 : Math.max(1, Math.ceil(total / pageSize))),
      },
      headers,
      samples,
      unfilteredFirst,
    );
    if (filter.name === 'no filter') unfilteredFirst = timed.measurements[0].p50Ms;
    cases.push(timed);
  }

  const memory = sampleMemory(context.pids);
  const syncQuery = `/v1/customer?${new URLSearchParams({ lastModifiedDateTime: SYNC_FROM, lastModifiedDateTimeCondition: '>=' })}`;
  const sync = await walkEveryPage(context.gatewayUrl, syncQuery, headers, MAX_PAGE_SIZE, syncBudget);
  const syncMemory = memory.stop();
  // The same walk straight to the service: how much of the sync is the gateway's hop.
  const direct = await walkEveryPage(context.serviceUrls['customers-v1'], syncQuery, headers, MAX_PAGE_SIZE, syncBudget);
  const floor = await copyFloor(context.databaseUrls['customers-v1'], companyId, SYNC_FROM, true);
  const rawFloor = await copyFloor(context.databaseUrls['customers-v1'], companyId, SYNC_FROM, false);
  const syncSeconds = round(sync.seconds, 1);
  const syncLabel = sync.finished ? `${syncSeconds} s` : `> ${syncSeconds} s (stopped after ${sync.pages} pages, ${sync.records} of ${sync.totalCount} records)`;
  context.log(
    `filtered-paging sync: ${sync.pages} pages in ${syncLabel}; COPY floor ${round(floor.seconds, 2)} s as JSON, ${round(rawFloor.seconds, 2)} s as columns, ${floor.rows} rows`,
  );
  return {
    scenario: 'filtered-paging',
    title: '',
    cases,
    targets: filteredPagingTargets(cases, sync.finished ? sync.seconds / floor.seconds : NaN),
    notes: [
      `Company of ${size} customers (plus a noise company); page 1 and the last page of ${PAGE_SIZE}, p50 of ${samples} single requests each through the gateway.`,
      `Full incremental sync (\`lastModifiedDateTime=${SYNC_FROM}\`, \`>=\`, pageSize ${MAX_PAGE_SIZE}, ${sync.totalCount} records): ${syncLabel} over ${sync.pages} pages; ` +
        `one COPY of the same ${floor.rows} rows rendered as the API's JSON: ${round(floor.seconds, 2)} s (ratio ${sync.finished ? `${round(sync.seconds / floor.seconds, 1)}×` : 'not finished'}), ` +
        `as the table's columns without JSON: ${round(rawFloor.seconds, 2)} s (ratio ${sync.finished ? `${round(sync.seconds / rawFloor.seconds, 1)}×` : 'not finished'}). ` +
        `The same walk straight to customers-v1: ${direct.finished ? `${round(direct.seconds, 1)} s` : `> ${round(direct.seconds, 1)} s (stopped after ${direct.pages} pages)`}. ` +
        `Peak RSS during the walk: ${Object.entries(syncMemory).map(([name, m]) => `${name} ${m.peakRssMiB} MiB`).join(', ')}.`,
    ],
  };
}

/**
 * The `orders: ` cases: one company of `--filtered.orders=` (200k) orders with 3 lines each,
 * created over five years, a third modified later, ~5,000 skewed customers, statuses and types
 * spread (plus a noise company), every filter case with every orderBy, page 1 and the last page
 * (pageIndex 0-based) through the gateway; the denominator of `first/unfiltered first` is the
 * unfiltered list with the same orderBy.
 */
async function orderPart(context: BenchContext, samples: number): Promise<ScenarioReport> {
  const size = Number(context.options['filtered.orders'] ?? 200_000);
  const companyId = `bench-filtered-orders-${sizeLabel(size)}`;
  const sql = new Client({ connectionString: context.databaseUrls[ORDERS_SERVICE] });
  await sql.connect();
  let filters;
  try {
    const spread = { customers: 5000, years: 5, updatedShare: 0.3, types: BENCH_ORDER_TYPES };
    const loaded = await loadSalesOrders(sql, {
      companies: [
        { companyId, orders: size, linesPerOrder: 3, spread },
        { companyId: 'bench-filtered-orders-noise', orders: Math.max(1000, Math.round(size / 20)), linesPerOrder: 1, spread },
      ],
      seed: context.seed,
      log: (line) => context.log(`  ${line}`),
    });
    context.log(`  loaded ${loaded.orders} orders, ${loaded.lines} lines in ${loaded.millis} ms`);
    filters = await salesOrderFilterCases(sql, companyId);
  } finally {
    await sql.end();
  }
  const token = await signDevToken(context.keys.privateKeyPem, { companies: [companyId], scope: 'erp:read', expiresInSeconds: 24 * 3600 });
  const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': companyId, 'ipp-application-type': 'erp-bench', accept: 'application/json' };
  const cases: ScenarioCase[] = [];
  const unfilteredFirst = new Map<string, number>();
  for (const filter of filters) {
    const orderBy = filter.query['orderBy'];
    const url = (pageSize: number, pageIndex: number) =>
      `${context.gatewayUrl}${filter.path}?${new URLSearchParams({ ...filter.query, pageSize: String(pageSize), pageIndex: String(pageIndex) })}`;
    const timed = await timeFilter(
      context,
      {
        name: filter.name,
        facts: { query: `${filter.path}?${new URLSearchParams(filter.query).toString()}` },
        pageUrl: (pageSize, page, total) => url(pageSize, page === 'first' ? 0 : Math.max(0, Math.ceil(total / pageSize) - 1)),
      },
      headers,
      samples,
      unfilteredFirst.get(orderBy) ?? NaN,
      v3OrderPageCounts,
    );
    if (!unfilteredFirst.has(orderBy)) unfilteredFirst.set(orderBy, timed.measurements[0].p50Ms);
    cases.push(timed);
  }
  return {
    scenario: 'filtered-paging',
    title: '',
    cases,
    targets: filteredPagingTargets(cases, NaN).filter((t) => t.description.startsWith('orders: ')),
    notes: [
      `Orders: company of ${size} sales orders (3 lines each, 5 years, 30% modified later, 5,000 skewed customers, types SO/QT/IN/CM), ` +
        `pageSize ${PAGE_SIZE}, p50 of ${samples} single requests each through the gateway; each case's page 1 is divided by the unfiltered page 1 with the same orderBy.`,
    ],
  };
}

/** The issue's targets: flat depth (last <= 1.5x first), page 1 within 3x unfiltered, sync within 3x the floor. */
export function filteredPagingTargets(cases: ScenarioCase[], syncOverFloor: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of cases) {
    if (c.name === 'no filter' || /^orders: unfiltered, /.test(c.name)) continue;
    checks.push(check(`${c.name}: last page p50 / page 1 p50`, c.ratios['last/first'], '<=', 1.5));
    checks.push(check(`${c.name}: page 1 p50 / unfiltered page 1 p50`, c.ratios['first/unfiltered first'], '<=', 3));
  }
  checks.push(check('full sync of every row / COPY floor (same JSON)', round(syncOverFloor, 1), '<=', 3));
  return checks;
}
