import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncApiDocument } from '@erp/contracts';
import { previousRelease } from '../releases';
import { describeBreakingChanges } from './breaking-change';
import { breakingChanges } from './contract-compat';
import { CONTRACT_FILES, contractsDirOf, recordedContracts, type ReleaseContracts } from './recorded-contracts';

// Records the published contracts of a release being cut (docs/releases.md "Cutting a release"):
//   npm start                                   # the release commit's system, in another terminal
//   TOKEN=$(npm run -s token -- --company 1000001 --scope webhooks:manage) \
//     npm run release:contracts -- --version 1.1.0 [--gateway http://localhost:3000]
// writes releases/contracts/<version>/openapi.json (the gateway's merged document),
// asyncapi.json (the events, from @erp/contracts) and webhooks.json (the webhook catalogue).

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
}

async function fetchJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.json();
}

async function main(args: string[]): Promise<void> {
  const version = option(args, 'version');
  const gateway = (option(args, 'gateway') ?? 'http://localhost:3000').replace(/\/$/, '');
  const token = process.env['TOKEN'];
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error('usage: TOKEN=<webhooks:manage token> npm run release:contracts -- --version x.y.z [--gateway URL]');
  if (!token) throw new Error('TOKEN must hold a token with the scope webhooks:manage (npm run -s token -- --company 1000001 --scope webhooks:manage)');
  const dir = contractsDirOf(version);
  if (existsSync(dir)) throw new Error(`${dir} exists: a release's contracts are recorded once`);

  const openapi = (await fetchJson(`${gateway}/openapi.json`)) as ReleaseContracts['openapi'] & { 'x-unavailable-services'?: string[] };
  if (openapi['x-unavailable-services']) throw new Error(`the merged document lacks ${openapi['x-unavailable-services'].join(', ')}: wait until every service is up`);
  const webhooks = (await fetchJson(`${gateway}/api/webhooks/publishers`, { authorization: `Bearer ${token}` })) as ReleaseContracts['webhooks'];
  const contracts: ReleaseContracts = { openapi, asyncapi: asyncApiDocument() as unknown as ReleaseContracts['asyncapi'], webhooks };

  const previous = previousRelease();
  const breaking = describeBreakingChanges(breakingChanges(recordedContracts(previous.version), contracts));
  if (breaking.length > 0) throw new Error(`breaking changes against ${previous.version} (a new API version path or topic major first):\n  ${breaking.join('\n  ')}`);

  mkdirSync(dir, { recursive: true });
  for (const [part, file] of Object.entries(CONTRACT_FILES)) {
    writeFileSync(join(dir, file), `${JSON.stringify(contracts[part as keyof ReleaseContracts], null, 2)}\n`);
  }
  process.stdout.write(`recorded the contracts of ${version} in ${dir}\n`);
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
