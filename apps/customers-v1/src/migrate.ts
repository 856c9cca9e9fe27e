import 'reflect-metadata';
import { loadConfig } from '@erp/bootstrap';
import { migrateDatabase } from '@erp/database';
import { CustomersConfig } from './config';
import { CUSTOMERS_ENTITIES, CUSTOMERS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
async function main(): Promise<void> {
  const config = loadConfig(CustomersConfig);
  const applied = await migrateDatabase({
    url: config.DATABASE_URL,
    entities: CUSTOMERS_ENTITIES,
    migrations: CUSTOMERS_MIGRATIONS,
    applicationName: 'customers-v1-migrate',
  });
  process.stdout.write(`customers-v1: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`customers-v1 migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
