import { join } from 'node:path';
import { type EmbeddedPostgresHandle, startEmbeddedPostgres } from '@erp/database';
import { bindingCostTable, runBindingCostBench } from './binding/binding-cost.bench';

const REPO_ROOT = join(__dirname, '..', '..', '..');

/**
 * `npm run bench:binding [-- --operations=3000 --rounds=5]`
 * What the transaction-scoped binding costs per database operation, against pg's own Pool, on
 * DATABASE_URL's server or a throw-away embedded one. Prints JSON, then a markdown table.
 */
async function main(): Promise<void> {
  const args = new Map(process.argv.slice(2).map((arg) => /^--([a-z]+)=(\d+)$/.exec(arg) ?? ['', arg, '']).map(([, name, value]) => [name, value]));
  for (const name of args.keys()) if (name !== 'operations' && name !== 'rounds') throw new Error(`unknown argument ${name} (expected --operations=N, --rounds=N)`);
  let embedded: EmbeddedPostgresHandle | undefined;
  try {
    let databaseUrl = process.env['DATABASE_URL'];
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(REPO_ROOT, '.data', `bench-binding-postgres-${process.pid}`), persistent: false });
      databaseUrl = embedded.adminUrl;
    }
    const result = await runBindingCostBench({
      databaseUrl,
      operations: Number(args.get('operations') ?? 3_000),
      rounds: Number(args.get('rounds') ?? 5),
    });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n\n${bindingCostTable(result)}\n`);
  } finally {
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:binding failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
