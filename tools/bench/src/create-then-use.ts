import { join } from 'node:path';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { type RunningSystem, startSystem } from '@erp/dev';
import { parseBrokers } from '@erp/messaging';
import { TestAuth } from '@erp/testing';
import { type FollowUpTiming, knownRecords, measureFollowUps } from './create-then-use/create-then-use.drive';

const REPO_ROOT = join(__dirname, '..', '..', '..');
/** The services whose consumers keep the copies the follow-up calls read. */
const COPYING = ['sales-orders-v3', 'attachments-v1'];

/**
 * `npm run bench:create-then-use [-- --samples=200]`
 *
 * What asking the owner costs a follow-up call (docs/cross-service-reads.md): the latency of an
 * order right after its customer was created, and of an upload right after its invoice was, against
 * the same call for a record the caller already knows (the floor, in the same run); with the
 * consumers running, then with them stopped (every follow-up asks the owner). Through the gateway,
 * every process as `npm start` runs it. JSON, then a markdown table, on stdout.
 */
async function main(): Promise<void> {
  const match = /^--samples=(\d+)$/.exec(process.argv[2] ?? '--samples=200');
  if (!match || process.argv.length > 3) throw new Error('usage: bench:create-then-use [-- --samples=N]');
  const samples = Number(match[1]);
  const log = (line: string) => process.stderr.write(`[bench:create-then-use] ${line}\n`);
  let embedded: EmbeddedPostgresHandle | undefined;
  let system: RunningSystem | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-xref-postgres-${process.pid}`), persistent: false });
      serverUrl = embedded.adminUrl;
    }
    const auth = new TestAuth();
    log('starting customers-v1, supplier-invoices-v1, attachments-v1, sales-orders-v3 and the gateway');
    system = await startSystem({
      databaseServerUrl: serverUrl,
      dataDir: join(REPO_ROOT, '.data', 'bench-unused'),
      gatewayPort: 0,
      servicePorts: 'free',
      keys: auth.keys,
      internalApiSecret: auth.internalApiSecret,
      quiet: true,
      services: ['attachments-v1', 'sales-orders-v3'],
      databaseName: (name) => `${name}_bench_xref_${process.pid}`,
      kafkaBrokers: process.env['KAFKA_BROKERS'] ? parseBrokers(process.env['KAFKA_BROKERS']) : undefined,
      env: { LOG_LEVEL: 'warn', LOG_REQUESTS: 'off', STORAGE_DIR: join(REPO_ROOT, '.data', `bench-xref-attachments-${process.pid}`) },
    });
    const driver = { system, auth, samples };
    const known = await knownRecords(driver);
    log(`measuring ${samples} follow-up calls of each kind, consumers running`);
    const timings: FollowUpTiming[] = await measureFollowUps(driver, 'at rest', known);
    log('restarting sales-orders-v3 and attachments-v1 with their consumers off');
    for (const name of COPYING) await system.restart(name, { signal: 'SIGTERM', env: { KAFKA_CONSUMER_GROUPS_OFF: '*' } });
    timings.push(...(await measureFollowUps(driver, 'consumers stopped', known)));
    // Each follow-up against the floor of its kind (order, upload) in the same phase (label).
    // A case reads '<kind>[,] ..., <phase>': kind is its first word, phase what follows the last comma.
    const kindAndPhase = (t: FollowUpTiming) => `${t.case.split(/[ ,]/)[0]} ${t.case.split(', ').pop()}`;
    const floor = (t: FollowUpTiming) => timings.find((f) => f.case.includes('(floor)') && kindAndPhase(f) === kindAndPhase(t));
    const rows = timings.map((t) => {
      const base = floor(t);
      const ratio = (value: number, of?: number) => (of ? `${(value / of).toFixed(2)}x` : '');
      return `| ${t.case} | ${t.calls} | ${t.p50Ms} ms ${ratio(t.p50Ms, base?.p50Ms)} | ${t.p99Ms} ms ${ratio(t.p99Ms, base?.p99Ms)} | ${t.maxMs} ms | ${t.failed} |`;
    });
    process.stdout.write(`${JSON.stringify({ scenario: 'create-then-use', samples, timings }, null, 2)}\n\n`);
    process.stdout.write(['| follow-up call | calls | p50 (vs floor) | p99 (vs floor) | max | failed |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n') + '\n');
    if (timings.some((t) => t.failed > 0)) process.exitCode = 1;
  } finally {
    await system?.stop();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:create-then-use failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
