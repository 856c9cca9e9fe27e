import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { machineInfo } from './framework/run-bench';
import { runMigrationsLoadBench } from './migrations-load/migrations-load.bench';
import { migrationsLoadTable, migrationsOverBound, WRITE_WAIT_BOUND_MS } from './migrations-load/migrations-load.report';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const USAGE = '--rows=N --services=a,b --since=previous-release|all --writers=N --write-interval-ms=N --out=file.json';

/**
 * `npm run bench:migrations [-- --rows=1000000 --services=customers-v1 --since=previous-release|all]`
 * Every migration of every service with a database (or those since the previous release), applied
 * one at a time as the migration Jobs do, on tables filled to production size, while writers write:
 * the longest write wait per migration (docs/migrations.md). On DATABASE_URL's server or a throw-away
 * embedded one. Prints JSON, then a markdown table (and writes both with --out). Exits 1 when a
 * migration added since the previous release held a write longer than 1 s or made one fail.
 */
async function main(): Promise<void> {
  const args = new Map(process.argv.slice(2).map((arg) => /^--([a-z-]+)=(.+)$/.exec(arg) ?? ['', arg, '']).map(([, name, value]) => [name, value]));
  for (const [name, value] of args) {
    if (!['rows', 'services', 'since', 'writers', 'write-interval-ms', 'out'].includes(name) || value === '') throw new Error(`unknown argument ${name} (expected ${USAGE})`);
  }
  const since = args.get('since') ?? 'previous-release';
  if (since !== 'previous-release' && since !== 'all') throw new Error(`--since=${since}: previous-release or all`);
  const number = (name: string, fallback: number) => {
    const value = Number(args.get(name) ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  let embedded: EmbeddedPostgresHandle | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-migrations-postgres-${process.pid}`), persistent: false });
      serverUrl = embedded.adminUrl;
    }
    const result = await runMigrationsLoadBench({
      serverUrl,
      rootDir: REPO_ROOT,
      rows: number('rows', 1_000_000),
      services: args.get('services')?.split(','),
      since,
      writers: number('writers', 2),
      writeIntervalMs: number('write-interval-ms', 20),
      log: (line) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`),
    });
    const output = { ...result, machine: machineInfo() };
    const table = migrationsLoadTable(result);
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n\n${table}\n`);
    const out = args.get('out');
    if (out) {
      writeFileSync(out, `${JSON.stringify(output, null, 2)}\n`);
      writeFileSync(out.replace(/(\.json)?$/, '.md'), `${table}\n`);
    }
    const newOverBound = migrationsOverBound(result).filter((m) => !m.released);
    if (newOverBound.length > 0) {
      process.stderr.write(`bench:migrations: a write waited over ${WRITE_WAIT_BOUND_MS} ms (or failed) during ${newOverBound.map((m) => m.name).join(', ')}\n`);
      process.exitCode = 1;
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:migrations failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
