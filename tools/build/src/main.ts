import { buildApp } from './build-app';

/** `npm run build -- <app> [<app>...]`: compiles each app into dist/apps/<app> (see build-app.ts). */
async function main(): Promise<void> {
  const apps = process.argv.slice(2);
  if (apps.length === 0) throw new Error('usage: npm run build -- <app> [<app>...]   e.g. customers-v1');
  for (const app of apps) {
    const started = Date.now();
    const result = await buildApp(app);
    process.stdout.write(
      `${app}: ${result.sources.length} files -> ${result.outDir} (${result.entries.join(', ')}) in ${Date.now() - started} ms\n`,
    );
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
