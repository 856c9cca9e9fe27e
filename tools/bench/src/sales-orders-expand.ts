/**
 * `npm run bench:sales-orders`: GET /api/v3/SalesOrders?expand=lines over orders of 300 lines.
 *
 * Starts PostgreSQL (DATABASE_URL's server, else a throw-away embedded one), Kafka (KAFKA_BROKERS,
 * else the in-memory dev broker), migrates a fresh database, loads `--orders` orders of `--lines`
 * lines each straight into the tables, and runs sales-orders-v3 as its own process (as in
 * production). Then, for each page size (`--page-sizes`, default 100 and 10), it reads every page
 * in turn, `--rounds` times, and reports per page: time to first byte, total time, bytes; and the
 * peak RSS of the service process while doing so (sampled from /proc). A parallel case runs
 * `--clients` readers at once to show that memory does not grow with the load.
 *
 * Baseline: the same pages produced in this process by the service's own query-and-stream code
 * (`openOrderPage` from @erp/sales-orders-queries) on a bare pg client, bytes counted and thrown
 * away: what the database and the JSON it builds cost without HTTP, Nest, auth or the pool.
 *
 *   npm run bench:sales-orders -- [--orders=200] [--lines=300] [--page-sizes=100,10] [--rounds=3] [--clients=4] [--out=file.json]
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { generateDevKeyPair, signDevToken } from '@erp/auth';
import { dropDatabase, ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@erp/database';
import { runTs, spawnTs, waitForReady, type SpawnedProcess } from '@erp/dev';
import { type KafkaDevBroker, startKafkaDevBroker } from '@erp/kafka-dev-broker';
import { openOrderPage, parseSalesOrderListQuery } from '@erp/sales-orders-queries';
import { sampleMemory } from './framework/process-memory';

const COMPANY = '7000001';

interface Options {
  orders: number;
  lines: number;
  pageSizes: number[];
  rounds: number;
  clients: number;
  out?: string;
}

function parseOptions(argv: string[]): Options {
  const get = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  return {
    orders: Number(get('orders') ?? 200),
    lines: Number(get('lines') ?? 300),
    pageSizes: (get('page-sizes') ?? '100,10').split(',').map(Number),
    rounds: Number(get('rounds') ?? 3),
    clients: Number(get('clients') ?? 4),
    out: get('out'),
  };
}

interface PageTiming {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

interface CaseResult {
  name: string;
  pageSize: number;
  pagesPerRound: number;
  requests: number;
  ttfbMs: { median: number; p95: number };
  pageMs: { median: number; p95: number; max: number };
  bytesPerPage: { median: number; max: number };
  throughputMiBs: number;
  servicePeakRssMiB?: number | null;
  baselinePageMs?: { median: number; p95: number };
}

const log = (line: string) => process.stdout.write(`[bench:sales-orders] ${line}\n`);

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Reads a response as it streams, counting bytes and never holding more than one chunk. */
async function readPage(url: string, headers: Record<string, string>): Promise<PageTiming> {
  const start = performance.now();
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  if (!response.body) throw new Error(`GET ${url} answered without a body`);
  const reader = response.body.getReader();
  let bytes = 0;
  let ttfbMs = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (ttfbMs < 0) ttfbMs = performance.now() - start;
    bytes += value.byteLength;
  }
  return { ttfbMs, totalMs: performance.now() - start, bytes };
}

/** The baseline: the service's own SQL and streaming on a bare pg client, bytes counted. */
async function baselinePage(client: Client, pageSize: number, pageIndex: number): Promise<PageTiming> {
  const start = performance.now();
  const rawQuery = `expand=lines&pageSize=${pageSize}&pageIndex=${pageIndex}`;
  const query = parseSalesOrderListQuery({ expand: 'lines', pageSize: String(pageSize), pageIndex: String(pageIndex) }, undefined);
  const stream = await openOrderPage(client, COMPANY, query, { path: '/api/v3/SalesOrders', rawQuery }, () => undefined);
  let bytes = 0;
  let ttfbMs = -1;
  for await (const chunk of stream) {
    if (ttfbMs < 0) ttfbMs = performance.now() - start;
    bytes += (chunk as Buffer).byteLength;
  }
  return { ttfbMs, totalMs: performance.now() - start, bytes };
}

function summarise(name: string, pageSize: number, pagesPerRound: number, timings: PageTiming[], wallMs: number): CaseResult {
  const bytes = timings.reduce((sum, t) => sum + t.bytes, 0);
  return {
    name,
    pageSize,
    pagesPerRound,
    requests: timings.length,
    ttfbMs: { median: round1(quantile(timings.map((t) => t.ttfbMs), 0.5)), p95: round1(quantile(timings.map((t) => t.ttfbMs), 0.95)) },
    pageMs: {
      median: round1(quantile(timings.map((t) => t.totalMs), 0.5)),
      p95: round1(quantile(timings.map((t) => t.totalMs), 0.95)),
      max: round1(Math.max(...timings.map((t) => t.totalMs))),
    },
    bytesPerPage: { median: quantile(timings.map((t) => t.bytes), 0.5), max: Math.max(...timings.map((t) => t.bytes)) },
    throughputMiBs: round1(bytes / 1024 / 1024 / (wallMs / 1000)),
  };
}

/** Orders and lines straight into the tables (one statement each), with their totals. */
async function loadOrders(sql: Client, orders: number, lines: number): Promise<void> {
  await sql.query(
    `INSERT INTO customer_snapshots (company_id, customer_id, name, status, currency_id, source_version)
     VALUES ($1, '10001', 'Nordic Timber AS', 'Active', 'NOK', 1)`,
    [COMPANY],
  );
  await sql.query(
    `INSERT INTO sales_orders (company_id, order_type, order_id, status, order_date, request_on, currency_id, customer_id,
       customer_name, customer_order, billing, shipping, payment_settings, attachments, last_line_id, created_at, last_modified_at)
     SELECT $1, 'SO', lpad(i::text, 6, '0'), 'Open', date_trunc('day', now()), date_trunc('day', now()), 'NOK', '10001',
       'Nordic Timber AS', 'PO-' || i, '{"address": null, "contact": null}', '{"address": null, "contact": null}',
       '{"terms": null, "method": null}', '[]', $3, now() + i * interval '1 millisecond', now() + i * interval '1 millisecond'
     FROM generate_series(1, $2::int) AS i`,
    [COMPANY, orders, lines],
  );
  await sql.query(
    `INSERT INTO sales_order_lines (company_id, order_internal_id, line_id, sort_order, inventory_id, description, quantity,
       unit_price, discount_percent, extended_price, unit_of_measure, warehouse_id, note)
     SELECT $1::varchar, o.internal_id, g, g, 'ITEM-' || lpad(g::text, 5, '0'), 'Pine plank 48x98, planed, per metre',
       (1 + g % 9)::numeric, (3.85 + g % 17)::numeric, (g % 4 * 2.5)::numeric,
       round((1 + g % 9)::numeric * (3.85 + g % 17)::numeric * (1 - (g % 4 * 2.5)::numeric / 100), 2), 'M', 'MAIN', NULL
     FROM sales_orders o, generate_series(1, $2::int) AS g WHERE o.company_id = $1::varchar`,
    [COMPANY, lines],
  );
  await sql.query(
    `UPDATE sales_orders AS o SET line_total = t.lt, order_total = t.ot, discount_total = t.lt - t.ot, order_qty = t.q
     FROM (SELECT order_internal_id, sum(round(quantity * unit_price, 2)) AS lt, sum(extended_price) AS ot, sum(quantity) AS q
           FROM sales_order_lines WHERE company_id = $1 GROUP BY order_internal_id) AS t
     WHERE o.company_id = $1 AND o.internal_id = t.order_internal_id`,
    [COMPANY],
  );
  await sql.query('VACUUM ANALYZE sales_orders');
  await sql.query('VACUUM ANALYZE sales_order_lines');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  let embedded: EmbeddedPostgresHandle | undefined;
  let broker: KafkaDevBroker | undefined;
  let service: SpawnedProcess | undefined;
  let sql: Client | undefined;
  let serverUrl = process.env.DATABASE_URL;
  const databaseName = `bench_sales_orders_${randomBytes(4).toString('hex')}`;
  try {
    if (!serverUrl) {
      log('starting embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({ dataDir: '.data/bench-sales-orders', persistent: false });
      serverUrl = embedded.adminUrl;
    }
    let kafkaBrokers = process.env.KAFKA_BROKERS;
    if (!kafkaBrokers) {
      broker = await startKafkaDevBroker({ port: 0, logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: log } });
      kafkaBrokers = broker.brokers.join(',');
    }
    const databaseUrl = await ensureDatabase(serverUrl, databaseName);
    const keys = generateDevKeyPair();
    const env = {
      DATABASE_URL: databaseUrl,
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_TOPIC_PREFIX: `bench.${randomBytes(3).toString('hex')}.`,
      AUTH_PUBLIC_KEY: keys.publicKeyPem,
      LOG_LEVEL: 'warn',
    };
    await runTs('sales-orders-v3 migrate', 'apps/sales-orders-v3/src/migrate.ts', env);

    sql = new Client({ connectionString: databaseUrl });
    sql.on('error', () => undefined);
    await sql.connect();
    log(`loading ${options.orders} orders x ${options.lines} lines`);
    const loadStart = performance.now();
    await loadOrders(sql, options.orders, options.lines);
    log(`loaded in ${Math.round(performance.now() - loadStart)} ms`);

    const port = await freePort();
    service = spawnTs('sales-orders-v3', 'apps/sales-orders-v3/src/main.ts', { ...env, PORT: String(port), HOST: '127.0.0.1' }, { quiet: true });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitForReady(`${baseUrl}/health/ready`, service);
    const pid = service.child.pid;
    if (pid === undefined) throw new Error('the service process has no pid');
    const token = await signDevToken(keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read' });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, accept: 'application/json' };
    const pageUrl = (pageSize: number, pageIndex: number) => `${baseUrl}/api/v3/SalesOrders?expand=lines&pageSize=${pageSize}&pageIndex=${pageIndex}`;

    // Warm-up (JIT, pool, plan cache), and a check that a page is what it claims to be.
    const check = (await (await fetch(pageUrl(options.pageSizes[0], 0), { headers })).json()) as { value: Array<{ lines: unknown[] }>; totalCount: number };
    if (check.totalCount !== options.orders || check.value[0].lines.length !== options.lines) throw new Error('unexpected page content');
    for (const pageSize of options.pageSizes) await readPage(pageUrl(pageSize, 0), headers);
    const idleRss = sampleMemory({ service: pid }).stop().service;
    log(`service RSS after warm-up: ${idleRss.peakRssMiB} MiB`);

    const results: CaseResult[] = [];
    for (const pageSize of options.pageSizes) {
      const pages = Math.ceil(options.orders / pageSize);
      const memory = sampleMemory({ service: pid }, 20);
      const timings: PageTiming[] = [];
      const wallStart = performance.now();
      for (let round = 0; round < options.rounds; round++) {
        for (let pageIndex = 0; pageIndex < pages; pageIndex++) timings.push(await readPage(pageUrl(pageSize, pageIndex), headers));
      }
      const wallMs = performance.now() - wallStart;
      const peak = memory.stop().service.peakRssMiB;

      const baseline = new Client({ connectionString: databaseUrl });
      await baseline.connect();
      const baselineTimings: PageTiming[] = [];
      for (let round = 0; round < options.rounds; round++) {
        for (let pageIndex = 0; pageIndex < pages; pageIndex++) baselineTimings.push(await baselinePage(baseline, pageSize, pageIndex));
      }
      await baseline.end();

      const result = summarise(`expand=lines pageSize=${pageSize}, one client`, pageSize, pages, timings, wallMs);
      result.servicePeakRssMiB = peak;
      result.baselinePageMs = {
        median: round1(quantile(baselineTimings.map((t) => t.totalMs), 0.5)),
        p95: round1(quantile(baselineTimings.map((t) => t.totalMs), 0.95)),
      };
      results.push(result);
      log(`${result.name}: ${JSON.stringify(result)}`);
    }

    if (options.clients > 1) {
      const pageSize = options.pageSizes[0];
      const pages = Math.ceil(options.orders / pageSize);
      const memory = sampleMemory({ service: pid }, 20);
      const wallStart = performance.now();
      const all = await Promise.all(
        Array.from({ length: options.clients }, async () => {
          const timings: PageTiming[] = [];
          for (let round = 0; round < options.rounds; round++) {
            for (let pageIndex = 0; pageIndex < pages; pageIndex++) timings.push(await readPage(pageUrl(pageSize, pageIndex), headers));
          }
          return timings;
        }),
      );
      const result = summarise(`expand=lines pageSize=${pageSize}, ${options.clients} clients at once`, pageSize, pages, all.flat(), performance.now() - wallStart);
      result.servicePeakRssMiB = memory.stop().service.peakRssMiB;
      results.push(result);
      log(`${result.name}: ${JSON.stringify(result)}`);
    }
    const lifetimePeak = sampleMemory({ service: pid }).stop().service.lifetimePeakRssMiB;

    const report = {
      machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
      data: { orders: options.orders, linesPerOrder: options.lines, rounds: options.rounds },
      serviceRssAfterWarmupMiB: idleRss.peakRssMiB,
      serviceLifetimePeakRssMiB: lifetimePeak,
      cases: results,
    };
    process.stdout.write(`\n${markdown(report.cases, idleRss.peakRssMiB, lifetimePeak)}\n`);
    if (options.out) writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await sql?.end().catch(() => undefined);
    await service?.stop('SIGTERM');
    if (serverUrl) await dropDatabase(serverUrl, databaseName).catch(() => undefined);
    await broker?.stop();
    await embedded?.stop();
  }
}

function markdown(cases: CaseResult[], idle: number | null, lifetime: number | null): string {
  const rows = cases.map(
    (c) =>
      `| ${c.name} | ${c.requests} | ${c.ttfbMs.median} | ${c.pageMs.median} / ${c.pageMs.p95} / ${c.pageMs.max} | ${c.baselinePageMs ? `${c.baselinePageMs.median} / ${c.baselinePageMs.p95}` : '-'} | ${round1(c.bytesPerPage.median / 1024 / 1024)} | ${c.throughputMiBs} | ${c.servicePeakRssMiB ?? '-'} |`,
  );
  return [
    '| case | requests | TTFB median ms | page ms median / p95 / max | baseline (SQL + stream, no HTTP) ms median / p95 | MiB per page | MiB/s | service peak RSS MiB |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Service RSS after warm-up: ${idle ?? '-'} MiB; lifetime peak (VmHWM): ${lifetime ?? '-'} MiB.`,
  ].join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:sales-orders failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
