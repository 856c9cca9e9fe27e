import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { loadCustomers } from '../data/customers.generator';
import { loadSalesOrders } from '../data/sales-orders.generator';
import { loadSupplierInvoices, SUPPLIER_COUNT } from '../data/supplier-invoices.generator';
import { round } from '../framework/load';
import { sampleMemory } from '../framework/process-memory';
import { check, type BenchContext, type BenchScenario, type ScenarioCase, type TargetCheck } from '../framework/scenario';
import { sizeLabel } from './customers-list.scenario';
import { measureNameCountWrites } from './filtered-paging/name-count-writes';
import { CHURN_CASE, churnCase, churnTargets, measureSearchChurn } from './filtered-paging/search-churn';
import { customerFilterCases, waitForNameCounts, SYNC_FROM } from './filtered-paging/customer-filters';
import { supplierInvoiceFilterCases } from './filtered-paging/supplier-invoice-filters';
import { loadAndMeasure, measureFilters, noiseCount, PAGE_SIZE, type PartResult, type TimedFilter, writeHeaders } from './filtered-paging/list-parts';
import { v3OrderPageCounts } from './filtered-paging/page-timing';
import { BENCH_ORDER_TYPES, salesOrderFilterCases } from './filtered-paging/sales-order-filters';
import { copyFloor, walkEveryPage } from './filtered-paging/sync-walk';

const MAX_PAGE_SIZE = 1000;
const ORDERS_SERVICE = 'sales-orders-v3';

/** The parts `--filtered.parts=` may name (comma list; default all). */
export const FILTERED_PAGING_PARTS = ['customers', 'invoices', 'orders'] as const;
type Part = (typeof FILTERED_PAGING_PARTS)[number];

function selectedParts(option: string | undefined): Set<Part> {
  if (option === undefined) return new Set(FILTERED_PAGING_PARTS);
  const parts = option.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const unknown = parts.filter((p) => !(FILTERED_PAGING_PARTS as readonly string[]).includes(p));
  if (parts.length === 0 || unknown.length > 0) throw new Error(`--filtered.parts must list some of ${FILTERED_PAGING_PARTS.join(', ')}, not ${option}`);
  return new Set(parts as Part[]);
}

/**
 * Scenario 7: every documented filter of `GET /v1/customer` and `GET /v1/supplierInvoice`, alone
 * and in pairs, on one company of 1M customers (`--filtered.customers=`) and one of 1M supplier
 * invoices (`--filtered.invoices=`), through the gateway, one request at a time: page 1 and the
 * last page (p50 of `--filtered.samples=` each, alternating), their ratio, and page 1 against the
 * unfiltered page 1 of the same list. Then the full incremental sync of customers (every page of
 * `lastModifiedDateTime >=` matching every row, at the largest page size) against one raw `COPY`
 * of the same rows. Then (`orders: ` cases) every filter of `GET /api/v3/SalesOrders[/{type}]`
 * with every orderBy on one company of 200k orders (`--filtered.orders=`), each page 1 against the
 * unfiltered page 1 of the same orderBy. `--filtered.parts=customers,invoices,orders` (default all)
 * runs only those parts.
 */
export const filteredPagingScenario: BenchScenario = {
  name: 'filtered-paging',
  title: 'GET /v1/customer, /v1/supplierInvoice and /api/v3/SalesOrders ?<filter>, page 1 and the last page',
  services: ['customers-v1', 'supplier-invoices-v1', ORDERS_SERVICE],
  async run(context) {
    const parts = selectedParts(context.options['filtered.parts']);
    const samples = Number(context.options['filtered.samples'] ?? 5);
    const cases: ScenarioCase[] = [];
    const notes: string[] = [];
    let syncOverFloor: number | undefined;
    if (parts.has('customers')) {
      const customers = await runCustomers(context, samples);
      cases.push(...customers.cases);
      notes.push(...customers.notes);
      syncOverFloor = customers.syncOverFloor;
    }
    if (parts.has('invoices')) {
      const invoices = await runInvoices(context, samples);
      cases.push(...invoices.cases);
      notes.push(...invoices.notes);
    }
    if (parts.has('orders')) {
      const orders = await runOrders(context, samples);
      cases.push(...orders.cases);
      notes.push(...orders.notes);
    }
    return { scenario: this.name, title: this.title, cases, targets: filteredPagingTargets(cases, syncOverFloor), notes };
  },
};

const NOISE_CUSTOMERS = 'bench-filtered-noise';

async function runCustomers(context: BenchContext, samples: number): Promise<PartResult> {
  const size = Number(context.options['filtered.customers'] ?? 1_000_000);
  const syncBudget = Number(context.options['filtered.syncBudgetSeconds'] ?? 240);
  const companyId = `bench-filtered-${sizeLabel(size)}`;
  const { cases, headers } = await loadAndMeasure(context, samples, {
    service: 'customers-v1',
    path: '/v1/customer',
    companyId,
    load: (sql, log) => loadCustomers(sql, { companies: [{ companyId, count: size }, { companyId: NOISE_CUSTOMERS, count: noiseCount(size) }], seed: context.seed, log }),
    filters: (sql) => customerFilterCases(sql, companyId),
    // A broad name's first request registers its counts in the background: later requests are timed once they are in.
    settle: async (filter, totalCount) => {
      if (filter.query['name'] !== undefined) await waitForNameCounts(context.databaseUrls['customers-v1'], companyId, filter.query['name'], totalCount);
    },
  });

  const memory = sampleMemory(context.pids);
  const syncQuery = `/v1/customer?${new URLSearchParams({ lastModifiedDateTime: SYNC_FROM, lastModifiedDateTimeCondition: '>=' })}`;
  const sync = await walkEveryPage(context.gatewayUrl, syncQuery, headers, MAX_PAGE_SIZE, syncBudget);
  const syncMemory = memory.stop();
  // The same walk straight to the service: how much of the sync is the gateway's hop.
  const direct = await walkEveryPage(context.serviceUrls['customers-v1'], syncQuery, headers, MAX_PAGE_SIZE, syncBudget);
  const floor = await copyFloor(context.databaseUrls['customers-v1'], companyId, SYNC_FROM, true);
  const rawFloor = await copyFloor(context.databaseUrls['customers-v1'], companyId, SYNC_FROM, false);
  const writes = await measureNameCountWrites(
    context.gatewayUrl,
    context.databaseUrls['customers-v1'],
    { id: companyId, headers: await writeHeaders(context, companyId) },
    { id: NOISE_CUSTOMERS, headers: await writeHeaders(context, NOISE_CUSTOMERS) },
    Number(context.options['filtered.writeSamples'] ?? 41),
  );
  context.log(`filtered-paging writes: PUT p50 ${writes.keptP50Ms} ms with ${writes.fragments} kept name counts, ${writes.noneP50Ms} ms with none`);
  const churn = await measureSearchChurn(context, companyId, { read: headers, write: await writeHeaders(context, companyId) }, Number(context.options['filtered.churnSeconds'] ?? 30));
  const syncSeconds = round(sync.seconds, 1);
  const syncLabel = sync.finished ? `${syncSeconds} s` : `> ${syncSeconds} s (stopped after ${sync.pages} pages, ${sync.records} of ${sync.totalCount} records)`;
  context.log(
    `filtered-paging sync: ${sync.pages} pages in ${syncLabel}; COPY floor ${round(floor.seconds, 2)} s as JSON, ${round(rawFloor.seconds, 2)} s as columns, ${floor.rows} rows`,
  );
  return {
    cases: [...cases, churnCase(churn)],
    syncOverFloor: sync.finished ? sync.seconds / floor.seconds : NaN,
    notes: [
      `Company of ${size} customers (plus a noise company); page 1 and the last page of ${PAGE_SIZE}, p50 of ${samples} single requests each through the gateway.`,
      `Full incremental sync (\`lastModifiedDateTime=${SYNC_FROM}\`, \`>=\`, pageSize ${MAX_PAGE_SIZE}, ${sync.totalCount} records): ${syncLabel} over ${sync.pages} pages; ` +
        `one COPY of the same ${floor.rows} rows rendered as the API's JSON: ${round(floor.seconds, 2)} s (ratio ${sync.finished ? `${round(sync.seconds / floor.seconds, 1)}×` : 'not finished'}), ` +
        `as the table's columns without JSON: ${round(rawFloor.seconds, 2)} s (ratio ${sync.finished ? `${round(sync.seconds / rawFloor.seconds, 1)}×` : 'not finished'}). ` +
        `The same walk straight to customers-v1: ${direct.finished ? `${round(direct.seconds, 1)} s` : `> ${round(direct.seconds, 1)} s (stopped after ${direct.pages} pages)`}. ` +
        `Peak RSS during the walk: ${Object.entries(syncMemory).map(([name, m]) => `${name} ${m.peakRssMiB} MiB`).join(', ')}.`,
      `Writes with kept name counts: a PUT renaming a customer, p50 of ${writes.samples} through the gateway (after a GET for its ETag, not timed), ` +
        `${writes.keptP50Ms} ms in the company keeping counts of ${writes.fragments} name fragments, ${writes.noneP50Ms} ms in the noise company keeping none ` +
        `(ratio ${round(writes.keptP50Ms / writes.noneP50Ms, 2)}×).`,
      `Writes during name search churn: one writer (GET, then the timed PUT with If-Match renaming a customer) for ${churn.alone.measurement.durationSeconds} s alone, ` +
        `then beside two read-only clients cycling ${churn.fragments.length} two-character name fragments (each in ${churn.shares[0] * 100}-${churn.shares[1] * 100} % of the names), ` +
        `against a customers-v1 with name counts switched off (CUSTOMER_NAME_COUNT_MIN_MATCHES=1000000000) and one with the defaults (${churn.registrations} registrations started), ` +
        `each a process of its own started by the case, straight to the service.`,
    ],
  };
}

async function runInvoices(context: BenchContext, samples: number): Promise<PartResult> {
  const size = Number(context.options['filtered.invoices'] ?? 1_000_000);
  const companyId = `bench-invoices-${sizeLabel(size)}`;
  const { cases } = await loadAndMeasure(context, samples, {
    service: 'supplier-invoices-v1',
    path: '/v1/supplierInvoice',
    companyId,
    load: (sql, log) =>
      loadSupplierInvoices(sql, { companies: [{ companyId, count: size }, { companyId: 'bench-invoices-noise', count: noiseCount(size) }], seed: context.seed, log }),
    filters: (sql) => supplierInvoiceFilterCases(sql, companyId),
  });
  return {
    cases,
    notes: [
      `Company of ${size} supplier invoices with 1-3 lines each, ~${SUPPLIER_COUNT} suppliers of skewed size (plus a noise company); ` +
        `page 1 and the last page of ${PAGE_SIZE}, p50 of ${samples} single requests each through the gateway; ratios against the unfiltered invoice page 1.`,
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
async function runOrders(context: BenchContext, samples: number): Promise<PartResult> {
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
        { companyId: 'bench-filtered-orders-noise', orders: noiseCount(size), linesPerOrder: 1, spread },
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
  const timed: TimedFilter[] = filters.map((filter) => {
    const url = (pageSize: number, pageIndex: number) =>
      `${context.gatewayUrl}${filter.path}?${new URLSearchParams({ ...filter.query, pageSize: String(pageSize), pageIndex: String(pageIndex) })}`;
    return {
      name: filter.name,
      facts: { query: `${filter.path}?${new URLSearchParams(filter.query).toString()}` },
      denominatorKey: filter.query['orderBy'] ?? '',
      pageUrl: (pageSize, page, total) => url(pageSize, page === 'first' ? 0 : Math.max(0, Math.ceil(total / pageSize) - 1)),
    };
  });
  return {
    cases: await measureFilters(context, timed, headers, samples, v3OrderPageCounts),
    notes: [
      `Orders: company of ${size} sales orders (3 lines each, 5 years, 30% modified later, 5,000 skewed customers, types SO/QT/IN/CM), ` +
        `pageSize ${PAGE_SIZE}, p50 of ${samples} single requests each through the gateway; each case's page 1 is divided by the unfiltered page 1 with the same orderBy.`,
    ],
  };
}

/** The issue's targets: flat depth (last <= 1.5x first), page 1 within 3x unfiltered, sync within 3x the floor. */
export function filteredPagingTargets(cases: ScenarioCase[], syncOverFloor: number | undefined): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of cases) {
    if (c.name === CHURN_CASE) {
      checks.push(...churnTargets(c));
      continue;
    }
    if (c.name.endsWith('no filter') || /^orders: unfiltered, /.test(c.name)) continue;
    checks.push(check(`${c.name}: last page p50 / page 1 p50`, c.ratios['last/first'], '<=', 1.5));
    checks.push(check(`${c.name}: page 1 p50 / unfiltered page 1 p50`, c.ratios['first/unfiltered first'], '<=', 3));
  }
  // Only when the customers part ran.
  if (syncOverFloor !== undefined) checks.push(check('full sync of every row / COPY floor (same JSON)', round(syncOverFloor, 1), '<=', 3));
  return checks;
}
