import { join } from 'node:path';
import { generateDevKeyPair } from '@erp/auth';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { startSystem, type RunningSystem } from '@erp/dev';
import { parseBrokers } from '@erp/messaging';
import { runWebhookLatency } from './scenarios/webhook-latency.drive';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/**
 * `npm run bench:webhooks [-- --events=600 --rate=50 --orders=20 --warmup=40]`
 *
 * Scenario 5 of `npm run bench` on its own (see scenarios/webhook-latency.drive.ts for what is
 * timed): end-to-end webhook latency from a committed PATCH to a local receiver. PATCHes go at a steady rate, round-robin over `orders` orders (each order's PATCHes in
 * sequence, with its ETag). Every process runs as `npm start` runs it, on free ports; Kafka is the
 * in-memory dev broker unless KAFKA_BROKERS is set; PostgreSQL is DATABASE_URL's server or a
 * throw-away embedded one. Result: JSON, then one markdown table row, on stdout.
 */
async function main(): Promise<void> {
  const args = new Map<string, number>();
  for (const arg of process.argv.slice(2)) {
    const match = /^--([a-z]+)=(\d+)$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg} (expected --events=N, --rate=N, --orders=N, --warmup=N)`);
    args.set(match[1], Number(match[2]));
  }
  const events = args.get('events') ?? 600;
  const rate = args.get('rate') ?? 50;
  const orders = args.get('orders') ?? 20;
  const warmup = args.get('warmup') ?? 40;
  const log = (line: string) => process.stderr.write(`[bench:webhooks] ${line}\n`);

  let embedded: EmbeddedPostgresHandle | undefined;
  let system: RunningSystem | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      log('starting a throw-away embedded PostgreSQL');
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-webhooks-postgres-${process.pid}`), persistent: false });
      serverUrl = embedded.adminUrl;
    }
    const keys = generateDevKeyPair();
    log('starting customers-v1, sales-orders-v3, webhook-publisher and the gateway');
    system = await startSystem({
      databaseServerUrl: serverUrl,
      dataDir: join(REPO_ROOT, '.data', 'bench-unused'),
      gatewayPort: 0,
      servicePorts: 'free',
      keys,
      quiet: true,
      services: ['customers-v1', 'sales-orders-v3', 'webhook-publisher'],
      databaseName: (name) => `${name}_bench_${process.pid}`,
      kafkaBrokers: process.env['KAFKA_BROKERS'] ? parseBrokers(process.env['KAFKA_BROKERS']) : undefined,
      env: { LOG_LEVEL: 'warn' },
    });
    const pids = Object.fromEntries(system.processes.map((p) => [p.name, p.child.pid ?? 0]));
    const result = await runWebhookLatency({
      baseUrl: system.baseUrl,
      publisherDatabaseUrl: system.databaseUrls['webhook-publisher'],
      keys,
      pids,
      rate,
      seconds: events / rate,
      orders,
      warmupSeconds: warmup / rate,
      log,
    });
    const summary = result.latency;
    process.stdout.write(`${JSON.stringify({ scenario: 'webhook-latency', kafka: process.env['KAFKA_BROKERS'] ? 'kafka' : 'dev-broker', ...result }, null, 2)}\n`);
    process.stdout.write(
      `| webhook PATCH commit -> receiver | ${rate}/s | ${summary.count} | ${summary.p50Ms} ms | ${summary.p95Ms} ms | ${summary.p99Ms} ms | ${summary.maxMs} ms | ${result.missing} missing |\n`,
    );
    if (result.missing > 0 || result.unverified > 0) process.exitCode = 1;
  } finally {
    await system?.stop();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:webhooks failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
