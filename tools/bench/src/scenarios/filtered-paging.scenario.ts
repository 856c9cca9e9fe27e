import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { loadCustomers } from '../data/customers.generator';
import { loadSupplierInvoices, SUPPLIER_COUNT } from '../data/supplier-invoices.generator';
import { round } from '../framework/load';
import { sampleMemory } from '../framework/process-memory';
import { check, type BenchContext, type BenchScenario, type ScenarioCase, type TargetCheck } from '../framework/scenario';
import { sizeLabel } from './customers-list.scenario';
import { customerFilterCases, type FilterCase, SYNC_FROM } from './filtered-paging/customer-filters';
import { supplierInvoiceFilterCases } from './filtered-paging/supplier-invoice-filters';
import { sequentialMeasurement, timePage, type TimedPage } from './filtered-paging/page-timing';
import { copyFloor, walkEveryPage } from './filtered-paging/sync-walk';

const PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

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

type Url = (query: Record<string, string>, pageSize: number, pageNumber: number) => string;

/**
 * Page 1 and the last page of each filter (p50 of `samples` each, alternating), their ratio, and
 * page 1 against the page 1 of the case named `unfiltered` (which must come first).
 */
async function measureFilters(context: BenchContext, filters: FilterCase[], unfiltered: string, url: Url, headers: Record<string, string>, samples: number): Promise<ScenarioCase[]> {
  const cases: ScenarioCase[] = [];
  let unfilteredFirst = NaN;
  for (const filter of filters) {
    const memory = sampleMemory(context.pids);
    const probe = await timePage(url(filter.query, PAGE_SIZE, 1), headers);
    const lastPage = Math.max(1, Math.ceil(probe.totalCount / PAGE_SIZE));
    const first: TimedPage[] = [];
    const last: TimedPage[] = [];
    for (let i = 0; i < samples; i++) {
      first.push(await timePage(url(filter.query, PAGE_SIZE, 1), headers));
      last.push(await timePage(url(filter.query, PAGE_SIZE, lastPage), headers));
    }
    const measurements = [sequentialMeasurement('page 1', first), sequentialMeasurement('last page', last)];
    if (filter.name === unfiltered) unfilteredFirst = measurements[0].p50Ms;
    const ratios = {
      'last/first': round(measurements[1].p50Ms / measurements[0].p50Ms),
      'first/unfiltered first': round(measurements[0].p50Ms / unfilteredFirst),
    };
    context.log(
      `filtered-paging ${filter.name}: ${probe.totalCount} rows; page 1 p50 ${measurements[0].p50Ms} ms, page ${lastPage} p50 ${measurements[1].p50Ms} ms`,
    );
    cases.push({ name: filter.name, facts: { query: new URLSearchParams(filter.query).toString(), totalCount: probe.totalCount, lastPage }, measurements, ratios, memory: memory.stop() });
  }
  return cases;
}

/**
 * Scenario 7: every documented filter of `GET /v1/customer` and `GET /v1/supplierInvoice`, alone
 * and in pairs, on one company of 1M customers (`--filtered.customers=`) and one of 1M supplier
 * invoices (`--filtered.invoices=`), through the gateway, one request at a time: page 1 and the
 * last page (p50 of `--filtered.samples=` each, alternating), their ratio, and page 1 against the
 * unfiltered page 1 of the same list. Then the full incremental sync of customers (every page of
 * `lastModifiedDateTime >=` matching every row, at the largest page size) against one raw `COPY`
 * of the same rows. `--filtered.parts=customers,invoices` (default all) runs only those parts.
 */
export const filteredPagingScenario: BenchScenario = {
  name: 'filtered-paging',
  title: 'GET /v1/customer and /v1/supplierInvoice ?<filter>&pageSize=100&pageNumber=1 and =last',
  services: ['customers-v1', 'supplier-invoices-v1'],
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
    return { scenario: this.name, title: this.title, cases, targets: filteredPagingTargets(cases, syncOverFloor), notes };
  },
};

/** One list of the scenario: its service and path, the company measured, how to load it and its filter cases. */
interface ListPart {
  service: string;
  path: string;
  companyId: string;
  /** The name of the unfiltered case (the denominator). */
  unfiltered: string;
  load(sql: Client, log: (line: string) => void): Promise<unknown>;
  filters(sql: Client): Promise<FilterCase[]>;
}

/** A noise company beside the measured one: 1/20 of its size, at least 1,000 rows. */
const noiseCount = (size: number) => Math.max(1000, Math.round(size / 20));

/** Loads the part's data into its service's database, then measures every filter case through the gateway. */
async function loadAndMeasure(context: BenchContext, samples: number, part: ListPart): Promise<{ cases: ScenarioCase[]; headers: Record<string, string> }> {
  const sql = new Client({ connectionString: context.databaseUrls[part.service] });
  await sql.connect();
  let filters: FilterCase[];
  try {
    await part.load(sql, (line) => context.log(`  ${line}`));
    filters = await part.filters(sql);
  } finally {
    await sql.end();
  }
  const token = await signDevToken(context.keys.privateKeyPem, { companies: [part.companyId], scope: 'erp:read', expiresInSeconds: 24 * 3600 });
  const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': part.companyId, 'ipp-application-type': 'erp-bench', accept: 'application/json' };
  const url: Url = (query, pageSize, pageNumber) =>
    `${context.gatewayUrl}${part.path}?${new URLSearchParams({ ...query, pageSize: String(pageSize), pageNumber: String(pageNumber) })}`;
  return { cases: await measureFilters(context, filters, part.unfiltered, url, headers, samples), headers };
}

interface PartResult {
  cases: ScenarioCase[];
  notes: string[];
  syncOverFloor?: number;
}

async function runCustomers(context: BenchContext, samples: number): Promise<PartResult> {
  const size = Number(context.options['filtered.customers'] ?? 1_000_000);
  const syncBudget = Number(context.options['filtered.syncBudgetSeconds'] ?? 240);
  const companyId = `bench-filtered-${sizeLabel(size)}`;
  const { cases, headers } = await loadAndMeasure(context, samples, {
    service: 'customers-v1',
    path: '/v1/customer',
    companyId,
    unfiltered: 'no filter',
    load: (sql, log) => loadCustomers(sql, { companies: [{ companyId, count: size }, { companyId: 'bench-filtered-noise', count: noiseCount(size) }], seed: context.seed, log }),
    filters: (sql) => customerFilterCases(sql, companyId),
  });

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
    cases,
    syncOverFloor: sync.finished ? sync.seconds / floor.seconds : NaN,
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

async function runInvoices(context: BenchContext, samples: number): Promise<PartResult> {
  const size = Number(context.options['filtered.invoices'] ?? 1_000_000);
  const companyId = `bench-invoices-${sizeLabel(size)}`;
  const { cases } = await loadAndMeasure(context, samples, {
    service: 'supplier-invoices-v1',
    path: '/v1/supplierInvoice',
    companyId,
    unfiltered: 'invoices: no filter',
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

/** The issue's targets: flat depth (last <= 1.5x first), page 1 within 3x unfiltered, sync within 3x the floor. */
export function filteredPagingTargets(cases: ScenarioCase[], syncOverFloor: number | undefined): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const c of cases) {
    if (c.name.endsWith('no filter')) continue;
    checks.push(check(`${c.name}: last page p50 / page 1 p50`, c.ratios['last/first'], '<=', 1.5));
    checks.push(check(`${c.name}: page 1 p50 / unfiltered page 1 p50`, c.ratios['first/unfiltered first'], '<=', 3));
  }
  // Only when the customers part ran.
  if (syncOverFloor !== undefined) checks.push(check('full sync of every row / COPY floor (same JSON)', round(syncOverFloor, 1), '<=', 3));
  return checks;
}
