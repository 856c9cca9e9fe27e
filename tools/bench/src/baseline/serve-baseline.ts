import type { Server } from 'node:http';

/** Runs a baseline server as its own process (see spawnBaseline): PORT, HOST; SIGTERM closes it. */
export function serveBaseline(name: string, baseline: { server: Server; close(): Promise<void> }): void {
  baseline.server.keepAliveTimeout = 60_000;
  baseline.server.listen(Number(process.env['PORT'] ?? 0), process.env['HOST'] ?? '127.0.0.1', () => {
    process.stdout.write(`${name} listening on ${JSON.stringify(baseline.server.address())}\n`);
  });
  process.once('SIGTERM', () => void baseline.close().then(() => process.exit(0)));
}

/** DATABASE_URL, or exit 1. */
export function requiredDatabaseUrl(name: string): string {
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) {
    process.stderr.write(`${name}: DATABASE_URL is required\n`);
    process.exit(1);
  }
  return databaseUrl;
}
