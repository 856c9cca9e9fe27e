import { join } from 'node:path';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { type RunningSystem, startSystem } from '@erp/dev';
import { parseBrokers } from '@erp/messaging';
import { TestAuth } from '@erp/testing';
import { runIdempotencyCostBench } from './idempotency/idempotency-cost.bench';

const REPO_ROOT = join(__dirname, '..', '..', '..');
/** Issue 49's target: a write with a key at most this many times a write without. */
export const KEY_COST_TARGET = 1.15;

/**
 * `npm run bench:idempotency [-- --writes=500 --rounds=5 --concurrency=4 --build=compiled]`
 *
 * What an Idempotency-Key costs a write: customers-v1 and the gateway as `npm start` runs them
 * (or their image builds), POST /v1/customer without and with a key, ratio in the same run.
 * JSON, then a markdown line, on stdout; exit 1 over the target.
 */
async function main(): Promise<void> {
  const args = new Map(process.argv.slice(2).map((arg) => /^--([a-z]+)=(.+)$/.exec(arg)?.slice(1, 3) as [string, string]));
  const number = (name: string, fallback: number) => (args.has(name) ? Number(args.get(name)) : fallback);
  const build = args.get('build') === 'compiled' ? 'compiled' : 'source';
  const log = (line: string) => process.stderr.write(`[bench:idempotency] ${line}\n`);
  let embedded: EmbeddedPostgresHandle | undefined;
  let system: RunningSystem | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-keys-postgres-${process.pid}`), persistent: false });
      serverUrl = embedded.adminUrl;
    }
    const auth = new TestAuth();
    log(`starting customers-v1 and the gateway (${build})`);
    system = await startSystem({
      databaseServerUrl: serverUrl,
      dataDir: join(REPO_ROOT, '.data', 'bench-unused'),
      gatewayPort: 0,
      servicePorts: 'free',
      keys: auth.keys,
      internalApiSecret: auth.internalApiSecret,
      quiet: true,
      services: ['customers-v1'],
      build,
      databaseName: (name) => `${name}_bench_keys_${process.pid}`,
      kafkaBrokers: process.env['KAFKA_BROKERS'] ? parseBrokers(process.env['KAFKA_BROKERS']) : undefined,
      env: { LOG_LEVEL: 'warn', LOG_REQUESTS: 'off', RATE_LIMIT_PER_COMPANY_PER_MINUTE: '0' },
    });
    const result = await runIdempotencyCostBench({ system, auth, writes: number('writes', 500), rounds: number('rounds', 5), concurrency: number('concurrency', 4) });
    process.stdout.write(`${JSON.stringify({ scenario: 'idempotency-cost', build, target: KEY_COST_TARGET, ...result }, null, 2)}\n\n`);
    process.stdout.write(
      `| POST /v1/customer (${result.writes} writes x ${result.rounds} rounds, ${result.concurrency} at once) | without a key ${result.unkeyedMs} ms | with a key ${result.keyedMs} ms | **${result.ratio}x** (target <= ${KEY_COST_TARGET}x) | a retry (the stored answer) ${result.replayMs} ms |\n`,
    );
    if (result.ratio > KEY_COST_TARGET) process.exitCode = 1;
  } finally {
    await system?.stop();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:idempotency failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
