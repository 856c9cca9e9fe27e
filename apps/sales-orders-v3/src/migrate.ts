import 'reflect-metadata';
import { loadConfig } from '@erp/bootstrap';
import { migrateDatabase } from '@erp/database';
import { SalesOrdersConfig } from './config';
import { SALES_ORDERS_ENTITIES, SALES_ORDERS_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
async function main(): Promise<void> {
  const config = loadConfig(SalesOrdersConfig);
  const applied = await migrateDatabase({
    url: config.DATABASE_URL,
    entities: SALES_ORDERS_ENTITIES,
    migrations: SALES_ORDERS_MIGRATIONS,
    applicationName: 'sales-orders-v3-migrate',
  });
  process.stdout.write(`sales-orders-v3: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`sales-orders-v3 migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
