import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { signDevToken } from '@erp/auth';
import { spawnBaseline } from '../baseline/spawn-baseline';
import { loadCustomers } from '../data/customers.generator';
import { SeededRandom } from '../data/random';
import { round } from '../framework/load';
import { measureTargets, type LoadTarget } from '../framework/measure';
import type { BenchContext, BenchScenario, ScenarioCase } from '../framework/scenario';
import { startServiceVariant, type ServiceVariant } from '../framework/service-variant';
import { sizeLabel } from './customers-list.scenario';

const COMPANY = 'bench-stages';
const PAGE_SIZE = 100;
const SHIPPED = 'as shipped';

/** A stage switched by the service's own settings, in a process of its own beside the system's. */
interface StageSwitch {
  name: string;
  /** What it changes, for the notes. */
  how: string;
  env: (context: BenchContext, sinkUrl: string) => Record<string, string>;
}

const SWITCHES: StageSwitch[] = [
  {
    name: 'statements not prepared',
    how: 'DATABASE_PREPARED_STATEMENTS=false (the page statement parsed and planned at every request)',
    env: () => ({ DATABASE_PREPARED_STATEMENTS: 'false' }),
  },
  { name: 'request lines off', how: 'LOG_REQUESTS=off', env: () => ({ LOG_REQUESTS: 'off' }) },
  { name: 'lines written one by one', how: 'LOG_BUFFER_BYTES=0', env: () => ({ LOG_BUFFER_BYTES: '0' }) },
  { name: 'request lines as in 1.0.0', how: 'LOG_REQUESTS=all LOG_BUFFER_BYTES=0 (two lines, each written at once)', env: () => ({ LOG_REQUESTS: 'all', LOG_BUFFER_BYTES: '0' }) },
  {
    name: 'tracing on',
    how: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT set, every request sampled, spans POSTed to a sink in the bench',
    env: (_context, sinkUrl) => ({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sinkUrl, OTEL_TRACES_SAMPLER: 'always_on' }),
  },
];

/** An OTLP/HTTP endpoint that accepts and drops spans: the collector's side is not measured. */
async function startSpanSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Scenario 8: what the stages of a customers-list request that the service's settings can switch
 * cost, in one run. customers-v1 as shipped and with each stage switched, each in a process of its
 * own beside the system's (consumers off, the same database), answer the same `GET /v1/customer?status=Active&pageSize=100&pageNumber=k` sequence,
 * alternating over the rounds with the raw baseline; each one's CPU per request is that of its own
 * process. Stages no setting switches (authentication, validation, the tenant binding, the
 * framework) are in the CPU profile's breakdown (`npm run bench:profile-stages`).
 */
export const requestStagesScenario: BenchScenario = {
  name: 'request-stages',
  title: 'GET /v1/customer?status=Active&pageSize=100&pageNumber=k against customers-v1 with one stage switched at a time',
  services: ['customers-v1'],
  async run(context) {
    const size = Number(context.options['stages.size'] ?? 100_000);
    const sql = new Client({ connectionString: context.databaseUrls['customers-v1'] });
    await sql.connect();
    let active = 0;
    try {
      const loaded = await loadCustomers(sql, { companies: [{ companyId: COMPANY, count: size }], seed: context.seed, log: (line) => context.log(`  ${line}`) });
      active = loaded.byStatus[COMPANY]?.['Active'] ?? 0;
    } finally {
      await sql.end();
    }
    const pages = Math.max(1, Math.ceil(active / PAGE_SIZE));
    const token = await signDevToken(context.keys.privateKeyPem, { companies: [COMPANY], scope: 'erp:read', expiresInSeconds: 24 * 3600 });
    const headers = { authorization: `Bearer ${token}`, 'ipp-company-id': COMPANY, 'ipp-application-type': 'erp-bench', accept: 'application/json' };
    const paths = () => {
      const random = new SeededRandom(context.seed + size);
      return () => `/v1/customer?status=Active&pageSize=${PAGE_SIZE}&pageNumber=${random.int(1, pages)}`;
    };

    const sink = await startSpanSink();
    const baseline = await spawnBaseline('customers-baseline', 'tools/bench/src/baseline/customers-baseline.main.ts', { DATABASE_URL: context.databaseUrls['customers-v1'] });
    const variants: Array<{ stage: StageSwitch; process: ServiceVariant }> = [];
    // As shipped in a process like the switched ones (fresh, consumers off), not the system's own,
    // which also runs the Kafka consumers and the background work: like is compared with like.
    let shippedProcess: ServiceVariant | undefined;
    try {
      shippedProcess = await startServiceVariant(context, 'customers-v1', SHIPPED, {});
      for (const stage of SWITCHES) variants.push({ stage, process: await startServiceVariant(context, 'customers-v1', stage.name, stage.env(context, sink.url)) });
      const processOf: Record<string, string> = { [SHIPPED]: SHIPPED, baseline: 'customers-baseline', ...Object.fromEntries(SWITCHES.map((s) => [s.name, s.name])) };
      const pids = { [SHIPPED]: shippedProcess.pid, 'customers-baseline': baseline.pid, ...Object.fromEntries(variants.map((v) => [v.stage.name, v.process.pid])) };
      const targets: LoadTarget[] = [
        { name: SHIPPED, baseUrl: shippedProcess.url, headers, paths },
        ...variants.map((v) => ({ name: v.stage.name, baseUrl: v.process.url, headers, paths })),
        { name: 'baseline', baseUrl: baseline.url, headers, paths },
      ];
      const { measurements, memory } = await measureTargets({ ...context, pids }, targets);
      // Each target's CPU is its own process's: the others idle meanwhile.
      const ownCpu = new Map(measurements.map((m) => [m.target, m.cpuMsPerRequest?.[processOf[m.target]] ?? NaN]));
      const shipped = ownCpu.get(SHIPPED) ?? NaN;
      const baselineRps = measurements.find((m) => m.target === 'baseline')?.rps ?? NaN;
      const cases: ScenarioCase[] = measurements.map((m) => ({
        name: m.target,
        facts: { customers: size, activeCustomers: active, pages },
        // One column group for all: the process that answered this case (the baseline's in its row).
        measurements: [{ ...m, target: 'process', cpuMsPerRequest: { [processOf[m.target]]: ownCpu.get(m.target) ?? NaN } }],
        ratios: { 'req/s / baseline': round(m.rps / baselineRps), 'CPU / as shipped': round((ownCpu.get(m.target) ?? NaN) / shipped) },
        memory: { process: memory[processOf[m.target]] },
      }));
      const notes = [
        `${sizeLabel(size)} customers. What each switched stage changes, in µs of the service's CPU per request against ${SHIPPED} (${Math.round(shipped * 1000)} µs):`,
        '',
        '| switched | how | µs CPU per request | change |',
        '| --- | --- | --- | --- |',
        ...SWITCHES.map((s) => {
          const cpu = ownCpu.get(s.name) ?? NaN;
          return `| ${s.name} | ${s.how} | ${Math.round(cpu * 1000)} | ${cpu >= shipped ? '+' : ''}${Math.round((cpu - shipped) * 1000)} |`;
        }),
      ];
      return { scenario: this.name, title: this.title, cases, targets: [], notes };
    } finally {
      await Promise.all([...variants.map((v) => v.process.stop()), shippedProcess?.stop()]);
      await baseline.stop();
      await sink.close();
    }
  },
};
