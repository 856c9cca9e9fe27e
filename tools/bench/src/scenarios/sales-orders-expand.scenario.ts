import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { spawnBaseline } from '../baseline/spawn-baseline';
import { loadSalesOrders } from '../data/sales-orders.generator';
import { SeededRandom } from '../data/random';
import { fetchBody, quantile, readStreamed } from '../framework/http';
import { measureTransfers, type TransferTarget } from '../framework/transfers';
import { round } from '../framework/load';
import { readCaseRatios } from '../framework/measure';
import { sampleMemory } from '../framework/process-memory';
import { check, type BenchScenario, type ScenarioCase, type TargetCheck } from '../framework/scenario';

const COMPANY = 'bench-orders-300';
const SERVICE = 'sales-orders-v3';
const DEFAULT_ORDERS = 200;
const DEFAULT_LINES = 300;
const DEFAULT_PAGE_SIZES = [100, 10];
/**
 * Concurrent clients per target: a page of 100 orders is 8 MiB of JSON, and on 2 cores two readers
 * already keep every process busy; more only queue behind them. Pages are read to their last byte
 * (measureTransfers), as a fixed load window would cut off the slow ones.
 */
const DEFAULT_CONNECTIONS = 2;
/** Sequential single-client reads of the largest page for the "one page under 2 s" target. */
const DEFAULT_SINGLE_READS = 10;

const listPath = (pageSize: number, pageIndex: number) => `/api/v3/SalesOrders?expand=lines&pageSize=${pageSize}&pageIndex=${pageIndex}`;

/**
 * Scenario 2: `GET /api/v3/SalesOrders?expand=lines&pageSize=n&pageIndex=k` over orders of 300
 * lines (COPY-loaded, seeded), k drawn uniformly over the pages (same sequence for every target).
 * Each page size is measured through the gateway, directly against sales-orders-v3 and against
 * the baseline (node:http + pg running the service's own SQL and stream, `sales-orders-baseline`),
 * all alternating. Then one client reads the largest page size page after page through the
 * gateway: that is the "one page served in under 2 s" figure. RSS growth is the service's peak
 * during the scenario over its RSS before the load.
 *
 * Options: `--sales-orders.orders=200 --sales-orders.lines=300 --sales-orders.page-sizes=100,10
 * --sales-orders.single-reads=10 --sales-orders.connections=2`.
 */
export const salesOrdersExpandScenario: BenchScenario = {
  name: 'sales-orders-expand',
  title: 'GET /api/v3/SalesOrders?expand=lines&pageSize=n&pageIndex=k',
  services: [SERVICE],
  async run(context) {
    const orders = Number(context.options['sales-orders.orders'] ?? DEFAULT_ORDERS);
    const linesPerOrder = Number(context.options['sales-orders.lines'] ?? DEFAULT_LINES);
    const pageSizes = context.options['sales-orders.page-sizes']?.split(',').map(Number) ?? DEFAULT_PAGE_SIZES;
    const singleReads = Number(context.options['sales-orders.single-reads'] ?? DEFAULT_SINGLE_READS);
    const connections = Number(context.options['sales-orders.connections'] ?? DEFAULT_CONNECTIONS);
    const databaseUrl = context.databaseUrls[SERVICE];
    const sql = new Client({ connectionString: databaseUrl });
    await sql.connect();
    try {
      const loaded = await loadSalesOrders(sql, {
        companies: [{ companyId: COMPANY, orders, linesPerOrder }],
        seed: context.seed,
        log: (line) => context.log(`  ${line}`),
      });
      context.log(`  loaded ${loaded.orders} orders, ${loaded.lines} lines in ${loaded.millis} ms`);
    } finally {
      await sql.end();
    }

    const baseline = await spawnBaseline('sales-orders-baseline', 'tools/bench/src/baseline/sales-orders-baseline.main.ts', { DATABASE_URL: databaseUrl });
    const pids = { ...context.pids, 'sales-orders-baseline': baseline.pid };
    const token = await signDevToken(context.keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read', expiresInSeconds: 24 * 3600 });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'erp-bench', accept: 'application/json' };
    const cases: ScenarioCase[] = [];
    const notes: string[] = [];
    const checks: TargetCheck[] = [];
    try {
      const targets: TransferTarget[] = [];
      const facts: Array<ScenarioCase['facts']> = [];
      for (const pageSize of pageSizes) {
        const pages = Math.max(1, Math.ceil(orders / pageSize));
        const bases = { gateway: context.gatewayUrl, direct: context.serviceUrls[SERVICE], baseline: baseline.url };
        // Each target reads the same seeded page sequence; a read counts when its last byte arrived.
        const group: TransferTarget[] = Object.entries(bases).map(([name, base]) => {
          const random = new SeededRandom(context.seed + pageSize);
          return { name, transfer: async () => (await readStreamed(`${base}${listPath(pageSize, random.int(0, pages - 1))}`, headers)).bytes };
        });
        // The three must answer the same bytes (nextPage link included), or the comparison means nothing.
        const probe = listPath(pageSize, Math.floor((pages - 1) / 2));
        const bodies = await Promise.all(Object.values(bases).map((base) => fetchBody(`${base}${probe}`, headers)));
        if (new Set(bodies).size !== 1) throw new Error(`sales-orders-expand pageSize=${pageSize}: the targets answered different bodies for ${probe}`);
        const page = JSON.parse(bodies[0]) as { value: Array<{ lines: unknown[] }>; totalCount: number };
        if (page.totalCount !== orders || page.value[0]?.lines.length !== linesPerOrder) {
          throw new Error(`sales-orders-expand: page ${probe} holds ${page.totalCount} orders of ${page.value[0]?.lines.length} lines`);
        }
        targets.push(...group);
        facts.push({ orders, linesPerOrder, pageSize, pages, pageBytes: Buffer.byteLength(bodies[0]) });
      }

      const serviceRssBefore = sampleMemory({ [SERVICE]: context.pids[SERVICE] }).stop()[SERVICE].peakRssMiB;
      const sampling = sampleMemory(pids, 50);
      const measurements = await measureTransfers({ ...context, pids }, targets, connections);
      const memory = sampling.stop();
      pageSizes.forEach((pageSize, i) => {
        const own = measurements.slice(i * 3, i * 3 + 3);
        cases.push({
          name: `pageSize=${pageSize}`,
          facts: facts[i],
          measurements: own,
          ratios: readCaseRatios(context, `sales-orders-expand pageSize=${pageSize}`, own, 1),
          memory,
        });
      });

      // One client, page after page of the largest page size, through the gateway.
      const largest = Math.max(...pageSizes);
      const pages = Math.max(1, Math.ceil(orders / largest));
      const single = sampleMemory({ [SERVICE]: context.pids[SERVICE] }, 20);
      const timings = [];
      for (let n = 0; n < singleReads; n++) timings.push(await readStreamed(`${context.gatewayUrl}${listPath(largest, n % pages)}`, headers));
      const singlePeak = single.stop()[SERVICE].peakRssMiB;
      const totals = timings.map((t) => t.totalMs);
      const singleMedian = round(quantile(totals, 0.5), 0);
      notes.push(
        `${connections} concurrent clients per target. One client through the gateway, ${singleReads} pages of ${largest} orders × ${linesPerOrder} lines ` +
          `(${(timings[0].bytes / 1024 / 1024).toFixed(1)} MiB each) in turn: median ${singleMedian} ms, ` +
          `max ${round(Math.max(...totals), 0)} ms, time to first byte median ${round(quantile(timings.map((t) => t.ttfbMs), 0.5), 0)} ms.`,
      );
      const peaks = [memory[SERVICE]?.peakRssMiB, singlePeak].filter((v): v is number => typeof v === 'number');
      const growth = serviceRssBefore !== null && peaks.length ? round(Math.max(...peaks) - serviceRssBefore, 1) : NaN;
      notes.push(`${SERVICE} RSS before the load ${serviceRssBefore ?? '–'} MiB, peak during the scenario ${peaks.length ? Math.max(...peaks) : '–'} MiB.`);
      const at100 = cases.find((c) => c.name === 'pageSize=100');
      if (at100) {
        checks.push(check('pageSize=100: gateway throughput / baseline', at100.ratios['gateway/baseline'], '>=', 0.5));
        if (largest === 100) checks.push(check('one page of 100 orders, one client via the gateway: median ms', singleMedian, '<=', 2000));
        checks.push(check(`${SERVICE} RSS growth MiB`, growth, '<=', 200));
      }
    } finally {
      await baseline.stop();
    }
    return { scenario: this.name, title: this.title, cases, targets: checks, notes };
  },
};
