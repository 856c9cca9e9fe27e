import { loadOrCreateDevKeyPair } from '@erp/auth';
import { parseArgs } from './args';
import { DEV_KEYS_DIR } from './paths';
import { seedCompany } from './seed-data';

/**
 * `npm run seed -- --company 2000002 [--customers 200] [--orders 40] [--invoices 8] [--url http://localhost:3000]`
 * creates demo data for a company in a running system (started with `npm start`, which trusts the
 * dev key): customers, supplier invoices with an attachment each (`--invoices 0` for none), then
 * sales orders for the customers (`--orders 0` for none).
 */
async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const companyId = args.get('company')?.[0] ?? '1000001';
  const customers = Number(args.get('customers')?.[0] ?? '60');
  const salesOrders = Number(args.get('orders')?.[0] ?? '40');
  const supplierInvoices = Number(args.get('invoices')?.[0] ?? '8');
  const baseUrl = args.get('url')?.[0] ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  await seedCompany({ baseUrl, keys: loadOrCreateDevKeyPair(DEV_KEYS_DIR), companyId, customers, salesOrders, supplierInvoices });
  process.stdout.write(
    `seeded ${customers} customers, ${salesOrders} sales orders and ${supplierInvoices} supplier invoices (with attachments) for company ${companyId} at ${baseUrl}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
