import 'reflect-metadata';
import { loadConfig } from '@erp/bootstrap';
import { migrateDatabase } from '@erp/database';
import { SupplierInvoicesConfig } from './config';
import { SUPPLIER_INVOICES_ENTITIES, SUPPLIER_INVOICES_MIGRATIONS } from './database';

/** Applies pending migrations and exits: run by `npm start` and as the Kubernetes migration Job. */
async function main(): Promise<void> {
  const config = loadConfig(SupplierInvoicesConfig);
  const applied = await migrateDatabase({
    url: config.DATABASE_URL,
    entities: SUPPLIER_INVOICES_ENTITIES,
    migrations: SUPPLIER_INVOICES_MIGRATIONS,
    applicationName: 'supplier-invoices-v1-migrate',
  });
  process.stdout.write(
    `supplier-invoices-v1: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`supplier-invoices-v1 migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
