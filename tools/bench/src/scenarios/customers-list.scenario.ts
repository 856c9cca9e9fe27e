import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { spawnBaseline } from '../baseline/spawn-baseline';
import { loadCustomers } from '../data/customers.generator';
import { SeededRandom } from '../data/random';
import { cpuBreakdownNotes } from '../framework/cpu-breakdown';
import { fetchBody } from '../framework/http';
import { round } from '../framework/load';
import { measureTargets, readCaseRatios, type LoadTarget } from '../framework/measure';
import { check, type BenchScenario, type ScenarioCase, type TargetCheck } from '../framework/scenario';

const PAGE_SIZE = 100;
const PROXY_FLOOR = 'proxy floor';
const DEFAULT_SIZES = [10_000, 100_000, 1_000_000];

export function sizeLabel(size: number): string {
  if (size >= 1_000_000 && size % 1_000_000 === 0) return `${size / 1_000_000}M`;
  if (size >= 1000 && size % 1000 === 0) return `${size / 1000}k`;
  return String(size);
}

/**
 * Scenario 1: `GET /v1/customer?status=Active&pageSize=100&pageNumber=k`, k drawn uniformly over
 * the result's pages (same seeded sequence for every target), for one company per data size; the
 * companies share one table (each is the others' noise, plus two noise companies). Each size is
 * measured through the gateway, directly against customers-v1, against the baseline, and through
 * the proxy floor in front of customers-v1 (Node's floor for the gateway's hop).
 */
export const customersListScenario: BenchScenario = {
  name: 'customers-list',
  title: 'GET /v1/customer?status=Active&pageSize=100&pageNumber=k',
  services: ['customers-v1'],
  async run(context) {
    const sizes = context.options['customers.sizes']?.split(',').map(Number) ?? DEFAULT_SIZES;
    const companies = sizes.map((count) => ({ companyId: `bench-${sizeLabel(count)}`, count }));
    const noise = Math.max(1000, Math.round(Math.max(...sizes) / 20));
    const sql = new Client({ connectionString: context.databaseUrls['customers-v1'] });
    await sql.connect();
    let loaded;
    try {
      loaded = await loadCustomers(sql, {
        companies: [...companies, { companyId: 'bench-noise-1', count: noise }, { companyId: 'bench-noise-2', count: noise }],
        seed: context.seed,
        log: (line) => context.log(`  ${line}`),
      });
    } finally {
      await sql.end();
    }

    const baseline = await spawnBaseline('customers-baseline', 'tools/bench/src/baseline/customers-baseline.main.ts', { DATABASE_URL: context.databaseUrls['customers-v1'] });
    // Node's floor for the gateway's hop, in front of the same customers-v1 (proxy-floor.ts).
    const proxyFloor = await spawnBaseline('proxy-floor', 'tools/bench/src/baseline/proxy-floor.main.ts', { UPSTREAM_URL: context.serviceUrls['customers-v1'] });
    const pids = { ...context.pids, 'customers-baseline': baseline.pid, 'proxy-floor': proxyFloor.pid };
    const token = await signDevToken(context.keys.privateKeyPem, {
      companies: companies.map((c) => c.companyId),
      scope: 'erp:read',
      expiresInSeconds: 24 * 3600,
    });
    const cases: ScenarioCase[] = [];
    try {
      const targets: LoadTarget[] = [];
      const facts: Array<ScenarioCase['facts']> = [];
      for (const company of companies) {
        const label = sizeLabel(company.count);
        const active = loaded.byStatus[company.companyId]?.['Active'] ?? 0;
        const pages = Math.max(1, Math.ceil(active / PAGE_SIZE));
        const headers = {
          authorization: `Bearer ${token}`,
          'ipp-company-id': company.companyId,
          'ipp-application-type': 'erp-bench',
          accept: 'application/json',
        };
        const paths = () => {
          const random = new SeededRandom(context.seed + company.count);
          return () => `/v1/customer?status=Active&pageSize=${PAGE_SIZE}&pageNumber=${random.int(1, pages)}`;
        };
        const group: LoadTarget[] = [
          { name: 'gateway', baseUrl: context.gatewayUrl, headers, paths },
          { name: 'direct', baseUrl: context.serviceUrls['customers-v1'], headers, paths },
          { name: 'baseline', baseUrl: baseline.url, headers, paths },
          { name: PROXY_FLOOR, baseUrl: proxyFloor.url, headers, paths },
        ];
        // All must answer the same bytes, or the comparison means nothing.
        const probe = `/v1/customer?status=Active&pageSize=${PAGE_SIZE}&pageNumber=${Math.ceil(pages / 2)}`;
        const bodies = await Promise.all(group.map((t) => fetchBody(`${t.baseUrl}${probe}`, headers)));
        if (new Set(bodies).size !== 1) throw new Error(`customers-list ${label}: the targets answered different bodies for ${probe}`);
        context.log(`customers-list ${label}: ${active} Active customers, pages 1..${pages}`);
        targets.push(...group);
        facts.push({ customers: company.count, activeCustomers: active, pages, tableRows: loaded.rows, pageBytes: bodies[0].length });
      }
      // Every size and target alternate within each round: slow spells hit all cases alike.
      const { measurements, memory } = await measureTargets({ ...context, pids }, targets);
      const perCompany = targets.length / companies.length;
      companies.forEach((company, i) => {
        const own = measurements.slice(i * perCompany, (i + 1) * perCompany);
        const rps = (name: string) => own.find((m) => m.target === name)?.rps ?? NaN;
        cases.push({
          name: sizeLabel(company.count),
          facts: facts[i],
          measurements: own,
          ratios: { ...readCaseRatios(context, `customers-list ${sizeLabel(company.count)}`, own), 'proxy floor/direct': round(rps(PROXY_FLOOR) / rps('direct')) },
          memory,
        });
      });
    } finally {
      await Promise.all([baseline.stop(), proxyFloor.stop()]);
    }
    const notes = [...cpuBreakdownNotes(cases, ['customers-v1', 'api-gateway', 'customers-baseline', 'proxy-floor']), '', ...proxyFloorNotes(cases)];
    return { scenario: this.name, title: this.title, cases, targets: customersListTargets(cases), notes };
  },
};

/**
 * The gateway's own CPU per request beside the proxy floor's (the same hop with nothing but Node's
 * HTTP and undici): what the gateway's features cost, and what no Node proxy can go below.
 */
export function proxyFloorNotes(cases: ScenarioCase[]): string[] {
  const ownCpu = (c: ScenarioCase, target: string, process: string) => c.measurements.find((m) => m.target === target)?.cpuMsPerRequest?.[process] ?? NaN;
  const rows = cases.map((c) => {
    const gateway = ownCpu(c, 'gateway', 'api-gateway');
    const floor = ownCpu(c, PROXY_FLOOR, 'proxy-floor');
    return `| ${c.name} | ${gateway.toFixed(2)} | ${floor.toFixed(2)} | ${(gateway - floor).toFixed(2)} |`;
  });
  return [
    "The gateway's hop against the proxy floor (node:http in front of undici's Pool, the answer streamed back, no routing, authentication, rate limit, logging or metrics: tools/bench/src/baseline/proxy-floor.ts), CPU ms per request of each one's own process:",
    '',
    '| case | api-gateway | proxy floor | the gateway\'s features |',
    '| --- | --- | --- | --- |',
    ...rows,
  ];
}

/** The targets, for whichever of the 10k, 100k and 1M cases ran. */
export function customersListTargets(cases: ScenarioCase[]): TargetCheck[] {
  const byName = new Map(cases.map((c) => [c.name, c]));
  const checks: TargetCheck[] = [];
  const at100k = byName.get('100k');
  if (at100k) {
    // Issue 42's targets (issue 9's were 0.5 and 0.7).
    checks.push(check('100k: gateway throughput / baseline', at100k.ratios['gateway/baseline'], '>=', 0.8));
    checks.push(check('100k: direct throughput / baseline', at100k.ratios['direct/baseline'], '>=', 0.9));
    const gatewayCpu = at100k.measurements.find((m) => m.target === 'gateway')?.cpuMsPerRequest?.['api-gateway'] ?? NaN;
    checks.push(check("100k: the gateway's own CPU ms per proxied request", gatewayCpu, '<=', 0.25));
  }
  const small = byName.get('10k');
  const large = byName.get('1M');
  if (small && large) {
    for (const target of ['gateway', 'direct']) {
      // No completed answer means no latency figure, not a latency of 0.
      const p50 = (c: ScenarioCase) => {
        const m = c.measurements.find((x) => x.target === target);
        return m && m.rps > 0 ? m.p50Ms : NaN;
      };
      checks.push(check(`${target}: p50 latency at 1M / at 10k`, round(p50(large) / p50(small)), '<=', 3));
    }
  }
  return checks;
}
