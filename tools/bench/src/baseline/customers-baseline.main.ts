import { createCustomersBaseline } from './customers-baseline';

/** The baseline as its own process (as the services run): DATABASE_URL, PORT, HOST. */
const databaseUrl = process.env['DATABASE_URL'];
if (!databaseUrl) {
  process.stderr.write('customers-baseline: DATABASE_URL is required\n');
  process.exit(1);
}
const baseline = createCustomersBaseline({ databaseUrl });
baseline.server.keepAliveTimeout = 60_000;
baseline.server.listen(Number(process.env['PORT'] ?? 0), process.env['HOST'] ?? '127.0.0.1', () => {
  process.stdout.write(`customers-baseline listening on ${JSON.stringify(baseline.server.address())}\n`);
});
process.once('SIGTERM', () => void baseline.close().then(() => process.exit(0)));
