import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropDatabase, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@erp/database';
import { execFileSync } from 'node:child_process';
import { GATEWAY, SERVICES } from '@erp/dev';
import { summaryReport, updateBenchmarksDoc, writeResults } from './framework/report';
import { runBench } from './framework/run-bench';
import { SCENARIOS } from './scenarios';

const REPO_ROOT = join(__dirname, '..', '..', '..');
/** Every figure of the latest full run, written by the bench (BENCHMARKS.md links to it). */
const LATEST_RUN_PAGE = 'docs/benchmark-latest-run.md';
const LATEST_RUN_HEADER = [
  '# The latest full benchmark run',
  '',
  'Written by `npm run bench` (every case, figure and target of the run); what the figures mean and the',
  'targets: [BENCHMARKS.md](../BENCHMARKS.md).',
  '',
].join('\n');

/**
 * `npm run bench [-- --scenario=customers-list] [--duration=15] [--connections=10] [--warmup=3]
 * [--rounds=5] [--seed=42] [--no-doc] [--env.LOG_LEVEL=warn] [--customers.sizes=10000,100000]
 * [--build=compiled] [--db-prefix=bench_]`. `--db-prefix` names the run's databases (`<prefix><service
 * database>`, dropped at the start and the end): give each concurrent run on a shared server its own. `--build=compiled` builds the apps the scenarios need (`nx run-many -t build`,
 * cached) and runs them as their images do (`node main.js`), so memory and CPU are the image's.
 * Runs the scenarios against the real system on its own PostgreSQL (DATABASE_URL's server, or a
 * throw-away embedded one) and Kafka (KAFKA_BROKERS, or the dev broker startSystem runs), writes bench-results.json and bench-results.md at the repository root,
 * and (unless --no-doc) every table into docs/benchmark-latest-run.md and the targets in brief into BENCHMARKS.md.
 */
async function main(): Promise<void> {
  const args = new Map<string, string>();
  for (const arg of process.argv.slice(2)) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg}`);
    args.set(match[1], match[2] ?? 'true');
  }
  const wanted = args.get('scenario')?.split(',');
  const scenarios = SCENARIOS.filter((s) => !wanted || wanted.includes(s.name));
  if (scenarios.length === 0) throw new Error(`no scenario named ${wanted?.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const options = Object.fromEntries([...args].filter(([key]) => key.includes('.') && !key.startsWith('env.')));
  const systemEnv = Object.fromEntries([...args].filter(([key]) => key.startsWith('env.')).map(([k, v]) => [k.slice(4), v]));
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const build = args.get('build') ?? 'source';
  if (build !== 'source' && build !== 'compiled') throw new Error(`--build must be source or compiled, not ${build}`);
  if (build === 'compiled') buildApps([...new Set(scenarios.flatMap((s) => s.services)), GATEWAY.name], log);

  let embedded: EmbeddedPostgresHandle | undefined;
  let serverUrl = process.env['DATABASE_URL'];
  if (!serverUrl) {
    log('starting a throw-away embedded PostgreSQL');
    embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-postgres-${process.pid}`), persistent: false });
    serverUrl = embedded.adminUrl;
  }
  const server = serverUrl;
  const kafkaBrokers = process.env['KAFKA_BROKERS']?.split(',').filter(Boolean);
  const prefix = args.get('db-prefix') ?? 'bench_';
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`--db-prefix must be a lower-case SQL identifier prefix, not ${prefix}`);
  const names = SERVICES.flatMap((s) => (s.database ? [`${prefix}${s.database}`] : []));
  for (const name of names) await dropDatabase(server, name);
  try {
    const results = await runBench({
      databaseServerUrl: server,
      databaseName: (database) => `${prefix}${database}`,
      scenarios,
      load: {
        connections: Number(args.get('connections') ?? 10),
        durationSeconds: Number(args.get('duration') ?? 15),
        warmupSeconds: Number(args.get('warmup') ?? 3),
        rounds: Number(args.get('rounds') ?? 5),
      },
      options,
      seed: Number(args.get('seed') ?? 42),
      systemEnv,
      kafkaBrokers,
      build,
      log,
    });
    const markdown = writeResults(results, join(REPO_ROOT, 'bench-results.json'), join(REPO_ROOT, 'bench-results.md'));
    log(`\n${markdown}`);
    if (args.get('no-doc') !== 'true') {
      // BENCHMARKS.md keeps the run in brief; the full tables go to their own page.
      writeFileSync(join(REPO_ROOT, LATEST_RUN_PAGE), `${LATEST_RUN_HEADER}\n${markdown}\n`);
      if (updateBenchmarksDoc(join(REPO_ROOT, 'BENCHMARKS.md'), summaryReport(results, LATEST_RUN_PAGE))) log(`BENCHMARKS.md and ${LATEST_RUN_PAGE} updated`);
    }
  } finally {
    if (embedded) await embedded.stop();
    else for (const name of names) await dropDatabase(server, name);
  }
}

/** The apps' image builds (Nx caches them: a second run rebuilds only what changed). */
function buildApps(apps: string[], log: (line: string) => void): void {
  log(`building ${apps.join(', ')} (nx run-many -t build)`);
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', '.bin', 'nx'), 'run-many', '-t', 'build', `--projects=${apps.join(',')}`, '--outputStyle=static'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
