import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { round } from '../../framework/load';
import { sampleMemory } from '../../framework/process-memory';
import type { BenchContext, ScenarioCase } from '../../framework/scenario';
import type { FilterCase } from './customer-filters';
import { sequentialMeasurement, timePage, type PageCounter, type TimedPage } from './page-timing';

/** Rows per timed page. */
export const PAGE_SIZE = 100;

/** One timed filter: its name, what the report shows of it, and the URL of page 1 or of its last page. */
export interface TimedFilter {
  name: string;
  facts: ScenarioCase['facts'];
  /** Filters with the same key share a denominator: the first of them (the unfiltered list). */
  denominatorKey: string;
  pageUrl(pageSize: number, page: 'first' | 'last', totalCount: number): string;
  /** Waits, after the first request (which found `totalCount` rows), for what it set going (a name's counts being registered). */
  settle?(totalCount: number): Promise<void>;
}

/**
 * Page 1 and the last page of each filter (p50 of `samples` each, alternating), their ratio, and
 * page 1 against the page 1 of the first filter with the same `denominatorKey` (the unfiltered
 * list, which must come first).
 */
export async function measureFilters(context: BenchContext, filters: TimedFilter[], headers: Record<string, string>, samples: number, counts?: PageCounter): Promise<ScenarioCase[]> {
  const cases: ScenarioCase[] = [];
  const unfilteredFirst = new Map<string, number>();
  for (const filter of filters) {
    const memory = sampleMemory(context.pids);
    const probe = await timePage(filter.pageUrl(PAGE_SIZE, 'first', 0), headers, counts);
    await filter.settle?.(probe.totalCount);
    const lastUrl = filter.pageUrl(PAGE_SIZE, 'last', probe.totalCount);
    const lastPage = Math.max(1, Math.ceil(probe.totalCount / PAGE_SIZE));
    const first: TimedPage[] = [];
    const last: TimedPage[] = [];
    for (let i = 0; i < samples; i++) {
      first.push(await timePage(filter.pageUrl(PAGE_SIZE, 'first', probe.totalCount), headers, counts));
      last.push(await timePage(lastUrl, headers, counts));
    }
    const measurements = [sequentialMeasurement('page 1', first), sequentialMeasurement('last page', last)];
    if (!unfilteredFirst.has(filter.denominatorKey)) unfilteredFirst.set(filter.denominatorKey, measurements[0].p50Ms);
    const ratios = {
      'last/first': round(measurements[1].p50Ms / measurements[0].p50Ms),
      'first/unfiltered first': round(measurements[0].p50Ms / (unfilteredFirst.get(filter.denominatorKey) as number)),
    };
    context.log(
      `filtered-paging ${filter.name}: ${probe.totalCount} rows; page 1 p50 ${measurements[0].p50Ms} ms, page ${lastPage} p50 ${measurements[1].p50Ms} ms`,
    );
    cases.push({ name: filter.name, facts: { ...filter.facts, totalCount: probe.totalCount, lastPage, firstRequestMs: round(probe.ms, 1) }, measurements, ratios, memory: memory.stop() });
  }
  return cases;
}

/** A v1 list's filter: pageNumber 1-based, one denominator (the part's first filter, unfiltered). */
function v1Filter(baseUrl: string, filter: FilterCase): TimedFilter {
  const url = (pageSize: number, pageNumber: number) => `${baseUrl}?${new URLSearchParams({ ...filter.query, pageSize: String(pageSize), pageNumber: String(pageNumber) })}`;
  return {
    name: filter.name,
    facts: { query: new URLSearchParams(filter.query).toString() },
    denominatorKey: '',
    pageUrl: (pageSize, page, total) => url(pageSize, page === 'first' ? 1 : Math.max(1, Math.ceil(total / pageSize))),
  };
}

/** One list of the scenario: its service and path, the company measured, how to load it and its filter cases. */
export interface ListPart {
  service: string;
  path: string;
  companyId: string;
  load(sql: Client, log: (line: string) => void): Promise<unknown>;
  filters(sql: Client): Promise<FilterCase[]>;
  /** See TimedFilter.settle. */
  settle?(filter: FilterCase, totalCount: number): Promise<void>;
}

/** Headers of a client that reads and writes `companyId`. */
export async function writeHeaders(context: BenchContext, companyId: string): Promise<Record<string, string>> {
  const token = await signDevToken(context.keys.privateKeyPem, { companies: [companyId], scope: 'erp:read erp:write', expiresInSeconds: 24 * 3600 });
  return { authorization: `Bearer ${token}`, 'ipp-company-id': companyId, 'ipp-application-type': 'erp-bench', accept: 'application/json' };
}

/** A noise company beside the measured one: 1/20 of its size, at least 1,000 rows. */
export const noiseCount = (size: number) => Math.max(1000, Math.round(size / 20));

/** Loads the part's data into its service's database, then measures every filter case through the gateway. */
export async function loadAndMeasure(context: BenchContext, samples: number, part: ListPart): Promise<{ cases: ScenarioCase[]; headers: Record<string, string> }> {
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
  const filtersTimed = filters.map((f) => ({ ...v1Filter(`${context.gatewayUrl}${part.path}`, f), settle: part.settle && ((total: number) => part.settle?.(f, total) ?? Promise.resolve()) }));
  return { cases: await measureFilters(context, filtersTimed, headers, samples), headers };
}

export interface PartResult {
  cases: ScenarioCase[];
  notes: string[];
  syncOverFloor?: number;
}
