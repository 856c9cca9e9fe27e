import { join } from 'node:path';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { runTenantWallCostBench, tenantWallCostTable } from './tenant-wall/tenant-wall-cost.bench';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const ARGUMENTS = ['customers', 'orders', 'samples'];

/**
 * `npm run bench:wall [-- --customers=1000000 --orders=200000 --samples=25]`
 * What the tenant views cost the customers `name` search and the sales-orders `filter` search,
 * page 1 and the last page, as the service (tables) and in the company's scope (views),
 * alternately in one process, on DATABASE_URL's server or a throw-away embedded one.
 */
async function main(): Promise<void> {
  const args = new Map(process.argv.slice(2).map((arg) => /^--([a-z]+)=(\d+)$/.exec(arg) ?? ['', arg, '']).map(([, name, value]) => [name, value]));
  for (const name of args.keys()) if (!ARGUMENTS.includes(name)) throw new Error(`unknown argument ${name} (expected ${ARGUMENTS.map((a) => `--${a}=N`).join(', ')})`);
  let embedded: EmbeddedPostgresHandle | undefined;
  try {
    let serverUrl = process.env['DATABASE_URL'];
    if (!serverUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-wall-postgres-${process.pid}`), persistent: false });
      serverUrl = embedded.adminUrl;
    }
    const cases = await runTenantWallCostBench({
      serverUrl,
      customers: Number(args.get('customers') ?? 1_000_000),
      orders: Number(args.get('orders') ?? 200_000),
      samples: Number(args.get('samples') ?? 25),
      log: (line) => process.stderr.write(`${line}\n`),
    });
    process.stdout.write(`${JSON.stringify(cases, null, 2)}\n\n${tenantWallCostTable(cases)}\n`);
  } finally {
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:wall failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
