import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DATA_DIR, startSystem } from '@erp/dev';
import { GENERATED_TYPES_PATH, renderClientTypes } from './render-types';

const REPO_ROOT = resolve(__dirname, '..', '..', '..');

/**
 * `npm run client:generate [-- --from <url or file>] [--check]`: writes the client's types from
 * the merged OpenAPI document. Without `--from` it starts the whole system on a throw-away
 * embedded database (the documents are built by the running services from their controllers),
 * reads the gateway's `/openapi.json` and stops it again; `--from http://localhost:3000` reads a
 * system already running. `--check` writes nothing and exits 1 when the committed file differs
 * (the drift guard the end-to-end suite runs).
 */
async function main(): Promise<void> {
  const fromIndex = process.argv.indexOf('--from');
  const from = fromIndex >= 0 ? process.argv[fromIndex + 1] : undefined;
  const check = process.argv.includes('--check');
  const document = from ? await readDocument(from) : await documentFromFreshSystem();
  const target = join(REPO_ROOT, GENERATED_TYPES_PATH);
  const rendered = await renderClientTypes(document);
  if (check) {
    const committed = await readFile(target, 'utf8').catch(() => '');
    if (committed !== rendered) {
      process.stderr.write(`${GENERATED_TYPES_PATH} is stale: the OpenAPI document changed. Run \`npm run client:generate\` and commit the result.\n`);
      process.exit(1);
    }
    process.stdout.write(`${GENERATED_TYPES_PATH} is up to date\n`);
    return;
  }
  await writeFile(target, rendered);
  process.stdout.write(`wrote ${GENERATED_TYPES_PATH}\n`);
}

async function readDocument(from: string): Promise<object> {
  if (/^https?:\/\//.test(from)) {
    const url = from.endsWith('.json') ? from : `${from.replace(/\/$/, '')}/openapi.json`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
    const document = (await response.json()) as Record<string, unknown>;
    // The gateway leaves out a service it could not reach; types from such a document would be incomplete.
    if (document['x-unavailable-services']) throw new Error(`the document lacks services: ${JSON.stringify(document['x-unavailable-services'])}`);
    return document;
  }
  return JSON.parse(await readFile(from, 'utf8')) as object;
}

async function documentFromFreshSystem(): Promise<object> {
  const log = (line: string) => process.stderr.write(`[client:generate] ${line}\n`);
  const system = await startSystem({ dataDir: join(DATA_DIR, 'client-codegen'), gatewayPort: 0, servicePorts: 'free', quiet: true, log });
  try {
    return await readDocument(system.baseUrl);
  } finally {
    await system.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`client:generate failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
});
